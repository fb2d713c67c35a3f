// Mirrors Docs/Testing.md, the first Swift block: the declarations every example on that page
// shares, verbatim. The other blocks are mirrored in TestingGuideTests.swift and
// TestingGuideXCTests.swift.
//
// `APIKey` is set globally only by `LegacyProfileXCTests`, the guide's example of what not to do
// (to a `LiveAPI`). No other test reads `\.api` without overriding it, except one that allows the
// fallback and expects the live API.

import Foundation  // NSLock, as in the guide
import Injection
import InjectionTesting
import Testing

protocol APIClient: Sendable {
  func userName(id: Int) async throws -> String
}

struct LiveAPI: APIClient {
  func userName(id: Int) async throws -> String {
    // The real network call goes here.
    "user \(id)"
  }
}

struct MockAPI: APIClient {
  var name = "Ada"

  func userName(id: Int) async throws -> String { name }

  /// Stands in for reading a fixture file: it may suspend and throw.
  static func loadFixture() async throws -> MockAPI {
    MockAPI(name: "Fixture")
  }
}

struct APIKey: InjectionKey {
  static let currentValue: any APIClient = LiveAPI()
}

protocol Logger: Sendable {
  func log(_ message: String)
}

struct PrintLogger: Logger {
  func log(_ message: String) { print(message) }
}

struct LoggerKey: InjectionKey {
  static let currentValue: any Logger = PrintLogger()
}

extension InjectedValues {
  var api: any APIClient {
    get { self[APIKey.self] }
    set { self[APIKey.self] = newValue }
  }

  var logger: any Logger {
    get { self[LoggerKey.self] }
    set { self[LoggerKey.self] = newValue }
  }
}

struct ProfileModel {
  @Injected(\.api) var api
  @Injected(\.logger) var logger

  func title(forUser id: Int) async throws -> String {
    let name = try await api.userName(id: id)
    logger.log("loaded user \(id)")
    return "Profile of \(name)"
  }
}

// Mirrors Docs/Testing.md, "A resource per test, built on first use", its declarations.

/// An in-memory store, created per test and removed after it.
final class ScratchStore: Sendable {
  let name: String
  init(name: String) { self.name = name }
  func remove() async {}
}

struct ScratchStoreKey: InjectionKey {
  static let currentValue = ScratchStore(name: "live")
}

extension InjectedValues {
  var scratchStore: ScratchStore {
    get { self[ScratchStoreKey.self] }
    set { self[ScratchStoreKey.self] = newValue }
  }
}

// MARK: - "A spy: record what the code did, read it back"

protocol Analytics: Sendable {
  func track(_ event: String)
}

struct LiveAnalytics: Analytics {
  func track(_ event: String) {}
}

private struct AnalyticsKey: InjectionKey {
  static let currentValue: any Analytics = LiveAnalytics()
}

extension InjectedValues {
  var analytics: any Analytics {
    get { self[AnalyticsKey.self] }
    set { self[AnalyticsKey.self] = newValue }
  }
}

struct Checkout {
  @Injected(\.analytics) var analytics

  func pay() async {
    async let receipt: Void = analytics.track("receipt sent")
    analytics.track("paid")
    await receipt
  }
}

/// Records every event it is given, from any task.
final class SpyAnalytics: Analytics, @unchecked Sendable {
  // Safe: `recorded` is read and written only while holding `lock`.
  private let lock = NSLock()
  private var recorded: [String] = []

  var events: [String] { lock.withLock { recorded } }

  func track(_ event: String) {
    lock.withLock { recorded.append(event) }
  }
}
