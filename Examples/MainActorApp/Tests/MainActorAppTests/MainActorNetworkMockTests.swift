import Injection
import InjectionTesting
import Testing

@testable import MainActorApp

/// Records what the app fetched, in state that belongs to the main actor.
///
/// A class conforming to a `nonisolated` protocol that refines `Sendable` is nonisolated, even in
/// this module: without `@MainActor` on the class, `calls` fails to compile ("stored property
/// 'calls' of 'Sendable'-conforming class 'MockNetwork' is mutable"). With the class
/// `@MainActor`, `NonisolatedNonsendingByDefault` still makes the method that satisfies the
/// requirement nonisolated ("main actor-isolated property 'calls' can not be mutated from a
/// nonisolated context"), so the method says `@MainActor` too. It may, because the requirement
/// is `async`: callers off the main actor hop to it with `await`.
@MainActor
final class MockNetwork: Network {
  private(set) var calls: [String] = []

  @MainActor
  func fetch(_ path: String) async throws -> String {
    calls.append(path)
    return "mock \(path)"
  }
}

@Suite("A main-actor mock of a nonisolated Sendable protocol")
struct MainActorNetworkMockTests {
  @Test(
    "The trait builds the mock, and the model's calls reach it",
    .injecting { $0.network = MockNetwork() }
  )
  func modelCallsReachTheMock() async throws {
    let model = InboxModel()
    try await model.refresh()
    let mock = try #require(InjectedValues[\.network] as? MockNetwork)
    #expect(model.messages == ["mock /inbox"])
    #expect(mock.calls == ["/inbox"])
  }

  @Test("Code off the main actor awaits the mock, which runs on the main actor")
  func offTheMainActor() async throws {
    let mock = MockNetwork()
    let fetched = try await withInjectedValues {
      $0.network = mock
    } operation: {
      try await prefetch("/feed")
    }
    #expect(fetched == "mock /feed")
    #expect(mock.calls == ["/feed"])
  }

  @Test(
    "Each case of a parameterized test records its own calls",
    .injecting { $0.network = MockNetwork() },
    arguments: 1...3
  )
  func eachCaseHasItsOwnMock(refreshes: Int) async throws {
    let model = InboxModel()
    for _ in 0..<refreshes { try await model.refresh() }
    let mock = try #require(InjectedValues[\.network] as? MockNetwork)
    #expect(mock.calls.count == refreshes)
  }
}
