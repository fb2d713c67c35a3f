// A main-actor singleton as a key's default. A `static let` of a `@MainActor` class is isolated
// to the main actor, so a key's `static let` cannot read it: "main actor-isolated default value
// in a nonisolated context". `shared` becomes `nonisolated`, and a `static var shared` becomes a
// `let` too: "'nonisolated' cannot be applied to mutable stored properties".
import Injection

@MainActor
final class SharedAppState {
  // Before: static var shared = SharedAppState()
  nonisolated static let shared = SharedAppState()

  private(set) var isLoggedIn = false

  func logIn() { isLoggedIn = true }
}

private struct SharedAppStateKey: InjectionKey {
  static let currentValue = SharedAppState.shared
}

extension InjectedValues {
  var appState: SharedAppState {
    get { self[SharedAppStateKey.self] }
    set { self[SharedAppStateKey.self] = newValue }
  }
}
