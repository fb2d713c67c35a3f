import Injection
import InjectionTesting
import Testing

// Dependencies shared by the tests and by the doc-comment examples they mirror; the testing
// guide's own declarations are in `GuideDeclarations.swift`. None of them is ever set globally,
// except `StrictGlobalKey`, which only the test of global fallbacks reads; so tests running in
// parallel never see each other's values.

protocol Greeting: Sendable {
  func greet(_ name: String) -> String
}

struct EnglishGreeting: Greeting {
  func greet(_ name: String) -> String { "Hello, \(name)" }
}

struct MockGreeting: Greeting {
  let word: String
  func greet(_ name: String) -> String { "\(word), \(name)" }
}

struct GreetingKey: InjectionKey {
  static let currentValue: any Greeting = EnglishGreeting()
}

/// Code under test: it reads its greeting through `@Injected` on every call.
struct Greeter {
  @Injected(\.greeting) var greeting

  func greet(_ name: String) -> String { greeting.greet(name) }
}

struct CountKey: InjectionKey {
  static let currentValue = 0
}

struct NameKey: InjectionKey {
  static let currentValue = "default"
}

/// A key read only through a seed-style accessor, `Self[Key.self]`.
struct SeedNameKey: InjectionKey {
  static let currentValue = "seed default"
}

protocol Clock: Sendable {
  func now() -> Double
}

struct SystemClock: Clock {
  func now() -> Double { 1_000 }
}

struct ClockKey: InjectionKey {
  static let currentValue: any Clock = SystemClock()
}

/// The one key that a test sets globally, to see strict mode report a global fallback.
struct StrictGlobalKey: InjectionKey {
  static let currentValue = 0
}

/// A fresh object per scope: tests use its identity to tell whether two scopes shared a mock.
final class Tally: Sendable {
  private let claims = Locked<[Int]>([])

  /// Records that the test case `owner` uses this tally; returns every owner recorded so far.
  @discardableResult
  func claim(by owner: Int) -> [Int] {
    claims.withLock {
      $0.append(owner)
      return $0
    }
  }

  var owners: [Int] { claims.withLock { $0 } }
}

struct TallyKey: InjectionKey {
  static let currentValue = Tally()
}

extension InjectedValues {
  var greeting: any Greeting {
    get { self[GreetingKey.self] }
    set { self[GreetingKey.self] = newValue }
  }

  var count: Int {
    get { self[CountKey.self] }
    set { self[CountKey.self] = newValue }
  }

  var name: String {
    get { self[NameKey.self] }
    set { self[NameKey.self] = newValue }
  }

  var seedName: String {
    get { Self[SeedNameKey.self] }
    set { Self[SeedNameKey.self] = newValue }
  }

  var clock: any Clock {
    get { self[ClockKey.self] }
    set { self[ClockKey.self] = newValue }
  }

  var strictGlobal: Int {
    get { self[StrictGlobalKey.self] }
    set { self[StrictGlobalKey.self] = newValue }
  }

  var tally: Tally {
    get { self[TallyKey.self] }
    set { self[TallyKey.self] = newValue }
  }

  /// A read-only view: allowing it allows the key its getter reads.
  var shoutedName: String { name.uppercased() }
}

/// Stands in for loading a fixture from disk: it suspends, and could throw.
func loadFixtureCount() async throws -> Int {
  await Task.yield()
  return 42
}

/// The first sentence of the issue strict mode records when a test sets `key` globally.
func setGlobally(_ key: String) -> String {
  "Strict injection: this test set the global value of \(key)."
}

/// The first sentence of the issue strict mode records when `key` falls back.
func fellBack(_ key: String, to source: InjectionSource) -> String {
  "Strict injection: \(key) has no override in this test; the read fell back to the \(source)."
}
