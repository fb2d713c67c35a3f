import Injection
import InjectionTesting
import Testing

// Strict mode allowing dependencies by main-actor accessors, whose key paths are not `Sendable`.
// This target has no default isolation, so the suites are `@MainActor`; Examples/MainActorApp
// has the same form in test targets with default main-actor isolation.

/// A main-actor service, as every class of an app with default main-actor isolation is.
@MainActor
final class SessionStore {
  private(set) var user: String?

  /// For the key's default, created on whichever thread reads the key first.
  nonisolated init() {}

  func signIn(_ name: String) { user = name }
}

/// Private, as an app declares its keys: only the accessor names it.
private struct SessionStoreKey: InjectionKey {
  static let currentValue = SessionStore()
}

@MainActor
extension InjectedValues {
  fileprivate var session: SessionStore {
    get { self[SessionStoreKey.self] }
    set { self[SessionStoreKey.self] = newValue }
  }
}

@MainActor
@Suite("Strict mode allowing main-actor accessors")
struct StrictMainActorTests {
  @Test(
    "A main-actor accessor allows its private key; other keys are still reported",
    .strictInjection(allowing: \.session)
  )
  func mainActorAccessorAllowsItsKey() {
    let log = StrictReportLog()
    log.capture {
      #expect(InjectedValues[\.session].user == nil)
      _ = InjectedValues[\.count]
    }
    #expect(log.summaries == [fellBack("CountKey", to: .defaultValue)])
  }

  @Test(
    "One list takes main-actor and Sendable accessors, and adds to the other forms",
    .strictInjection(allowing: \.session, \.clock),
    .strictInjection(allowing: \.logger),
    .strictInjection(allowingKeys: NameKey.self)
  )
  func listsCombine() {
    let log = StrictReportLog()
    log.capture {
      _ = InjectedValues[\.session]
      _ = InjectedValues[\.clock]
      _ = InjectedValues[\.logger]
      _ = InjectedValues[\.name]
      _ = InjectedValues[\.count]
    }
    #expect(log.summaries == [fellBack("CountKey", to: .defaultValue)])
  }

  @Test("Made in a main-actor test body, the trait allows the keys its getter read")
  func keysAreFoundWhenTheTraitIsCreated() async throws {
    let trait: StrictInjectionTrait = .strictInjection(allowing: \.session)
    let log = StrictReportLog()
    try await log.capture {
      try await trait.provideScope(for: Test.current!, testCase: Test.Case.current) { @MainActor in
        _ = InjectedValues[\.session]
        _ = InjectedValues[\.name]
      }
    }
    #expect(log.summaries == [fellBack("NameKey", to: .defaultValue)])
  }
}
