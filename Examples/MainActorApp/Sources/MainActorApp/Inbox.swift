// A `nonisolated` dependency whose requirement is `async`, the shape Docs/Migrating.md gives a
// dependency that code off the main actor reads. Its tests mock it with a main-actor class
// (MainActorNetworkMockTests.swift): an `async` requirement lets the mock's methods run on the
// main actor.
import Injection

/// Fetches a resource from the server.
nonisolated protocol Network: Sendable {
  func fetch(_ path: String) async throws -> String
}

nonisolated struct LiveNetwork: Network {
  func fetch(_ path: String) async throws -> String {
    // The real request goes here.
    "live \(path)"
  }
}

nonisolated private struct NetworkKey: InjectionKey {
  static let currentValue: any Network = LiveNetwork()
}

nonisolated extension InjectedValues {
  var network: any Network {
    get { self[NetworkKey.self] }
    set { self[NetworkKey.self] = newValue }
  }
}

/// The inbox screen's model, on the main actor like its view.
final class InboxModel {
  @Injected(\.network) var network

  private(set) var messages: [String] = []

  func refresh() async throws {
    messages = [try await network.fetch("/inbox")]
  }
}

/// Fetches off the main actor, in the caller's task, so in the caller's scope.
@concurrent
func prefetch(_ path: String) async throws -> String {
  try await InjectedValues[\.network].fetch(path)
}
