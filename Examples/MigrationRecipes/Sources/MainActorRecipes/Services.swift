// The same shapes in a module isolated to the main actor by default, where every class is a
// main-actor class and every key a main-actor key.
import Injection
import Observation

// A main-actor singleton as the default of a main-actor key: it compiles as it is, because the
// key's conformance is isolated to the main actor (`InferIsolatedConformances`).
final class SharedAppState {
  static let shared = SharedAppState()

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

// An `@Observable` class as the default of a main-actor key compiles as it is too.
@Observable
final class SessionStore {
  var userName: String?

  func logIn(as name: String) { userName = name }
}

private struct SessionStoreKey: InjectionKey {
  static let currentValue = SessionStore()
}

extension InjectedValues {
  var sessionStore: SessionStore {
    get { self[SessionStoreKey.self] }
    set { self[SessionStoreKey.self] = newValue }
  }
}
