// A `Sendable` final class that reads a dependency: the usual shape of a Swift 6 service. It
// cannot hold `@Injected`, whose storage is a `var` ("stored property '_session' of
// 'Sendable'-conforming class 'APIClient' is mutable"). It stores the wrapper as a `let`, and
// calls it: each call resolves in the caller's scope, as reading `@Injected` does.
import Injection

protocol Session: Sendable {
  func data(for path: String) async throws -> String
}

struct LiveSession: Session {
  init() {}
  func data(for path: String) async throws -> String { "live \(path)" }
}

private struct SessionKey: InjectionKey {
  static let currentValue: any Session = LiveSession()
}

extension InjectedValues {
  var session: any Session {
    get { self[SessionKey.self] }
    set { self[SessionKey.self] = newValue }
  }
}

final class APIClient: Sendable {
  // Before: @Injected(\.session) var session: Session
  let session = Injected(\.session)

  init() {}

  func profile() async throws -> String {
    try await session().data(for: "/profile")
  }
}

/// An actor reading a main-actor service: the key and the accessor of `SharedAppState` are
/// nonisolated (see MainActorSingleton.swift), so `@Injected` compiles, and the actor awaits
/// the service's methods.
actor SyncEngine {
  @Injected(\.appState) var appState

  init() {}

  func syncIfLoggedIn() async -> Bool {
    await appState.isLoggedIn
  }
}
