// A service that belongs to the main actor, created once as its key's default, and reachable
// from any thread: code off the main actor reads it and calls it with `await`.
import Injection

/// Short messages shown over the UI. Its state belongs to the main actor.
final class ToastCenter {
  private(set) var messages: [String] = []

  // `nonisolated`, so that the nonisolated key below can create the default on whichever thread
  // reads it first. Such an initializer may only set stored properties, with values that any
  // thread may create; the methods stay on the main actor.
  nonisolated init() {}

  func show(_ message: String) {
    messages.append(message)
  }
}

// Nonisolated, so that code off the main actor can read the key. A main-actor class is
// `Sendable`, so any thread may hold the reference.
nonisolated private struct ToastCenterKey: InjectionKey {
  static let currentValue = ToastCenter()
}

nonisolated extension InjectedValues {
  var toastCenter: ToastCenter {
    get { self[ToastCenterKey.self] }
    set { self[ToastCenterKey.self] = newValue }
  }
}
