// A main-actor singleton as a key's default. A `static let` of a `@MainActor` class is isolated
// to the main actor, so a key's `static let` cannot read it: "main actor-isolated default value
// in a nonisolated context".
import Injection

@MainActor
public final class SharedAppState {
  // Before: public static let shared = SharedAppState()
  // `nonisolated`, so that any thread may read it. Its initializer must be nonisolated too: this
  // class declares none, and the one Swift writes is nonisolated (its stored properties'
  // default values are); a class that declares `init()` marks it `nonisolated init()`.
  public nonisolated static let shared = SharedAppState()

  public private(set) var isLoggedIn = false

  public func logIn() { isLoggedIn = true }
}

private struct SharedAppStateKey: InjectionKey {
  static let currentValue = SharedAppState.shared
}

extension InjectedValues {
  public var appState: SharedAppState {
    get { self[SharedAppStateKey.self] }
    set { self[SharedAppStateKey.self] = newValue }
  }
}
