// A main-actor singleton as a key's default. A `static let` of a `@MainActor` class is isolated
// to the main actor, so a key's `static let` cannot read it: "main actor-isolated default value
// in a nonisolated context".
import Injection

@MainActor
final class SharedAppState {
  // Before: static let shared = SharedAppState()
  // `nonisolated`, so that any thread may read it. Its initializer must be nonisolated too: this
  // class declares none, and the one Swift writes is nonisolated (its stored properties'
  // default values are); a class that declares `init()` marks it `nonisolated init()`.
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
