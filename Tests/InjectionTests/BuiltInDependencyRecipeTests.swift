import Foundation
import Injection
import Testing

// The recipes of Docs/ComingFromOtherLibraries.md, "A clock, the date and UUIDs" and
// "Unimplemented test values", as the guide writes them. The keys are private to this file, so
// no other test reads them.

/// Sleeps return at once and move `now` to their deadline.
private final class TestClock: Clock, @unchecked Sendable {
  struct Instant: InstantProtocol {
    var offset: Duration
    func advanced(by d: Duration) -> Self { .init(offset: offset + d) }
    func duration(to other: Instant) -> Duration { other.offset - offset }
    static func < (a: Self, b: Self) -> Bool { a.offset < b.offset }
  }

  // Safe: `current` is only touched under `lock`.
  private let lock = NSLock()
  private var current = Instant(offset: .zero)

  var now: Instant { lock.withLock { current } }
  var minimumResolution: Duration { .zero }

  func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    try Task.checkCancellation()
    lock.withLock { current = max(current, deadline) }
  }
}

/// 00000000-0000-0000-0000-000000000000, then …0001: one per test.
private func incrementingUUIDs() -> @Sendable () -> UUID {
  let lock = NSLock()
  nonisolated(unsafe) var count = 0  // Safe: only touched under `lock`.
  return {
    let number = lock.withLock {
      defer { count += 1 }
      return count
    }
    let hex = String(number, radix: 16)
    let padded = String(repeating: "0", count: 12 - hex.count) + hex
    return UUID(uuidString: "00000000-0000-0000-0000-" + padded)!
  }
}

private struct ClockKey: InjectionKey {
  static let currentValue: any Clock<Duration> = ContinuousClock()
}

private struct NowKey: InjectionKey {
  static let currentValue: @Sendable () -> Date = { Date() }
}

private struct MakeUUIDKey: InjectionKey {
  static let currentValue: @Sendable () -> UUID = { UUID() }
}

private protocol RecipeAPIClient: Sendable {
  func fetch(_ path: String) -> String
}

private struct LiveRecipeAPIClient: RecipeAPIClient {
  func fetch(_ path: String) -> String { "live \(path)" }
}

/// Fails the test that calls it.
private struct UnimplementedAPIClient: RecipeAPIClient {
  func fetch(_ path: String) -> String {
    Issue.record("APIClient.fetch(\(path)) is not implemented")
    return ""
  }
}

private struct RecipeAPIClientKey: InjectionKey {
  static let currentValue: any RecipeAPIClient = LiveRecipeAPIClient()
}

extension InjectedValues {
  fileprivate var clock: any Clock<Duration> {
    get { self[ClockKey.self] }
    set { self[ClockKey.self] = newValue }
  }

  fileprivate var now: @Sendable () -> Date {
    get { self[NowKey.self] }
    set { self[NowKey.self] = newValue }
  }

  fileprivate var makeUUID: @Sendable () -> UUID {
    get { self[MakeUUIDKey.self] }
    set { self[MakeUUIDKey.self] = newValue }
  }

  fileprivate var recipeAPIClient: any RecipeAPIClient {
    get { self[RecipeAPIClientKey.self] }
    set { self[RecipeAPIClientKey.self] = newValue }
  }
}

private struct ReminderScheduler {
  @Injected(\.clock) var clock
  @Injected(\.now) var now
  @Injected(\.makeUUID) var makeUUID

  /// Waits five minutes, then returns a new reminder's ID and date.
  func snooze() async throws -> (id: UUID, due: Date) {
    try await clock.sleep(for: .seconds(300))
    return (makeUUID(), now())
  }
}

/// Runs `operation` with the guide's test values, as its `.testValues` trait sets them.
private func withTestValues<Result>(
  _ operation: () async throws -> Result
) async throws -> Result {
  try await withInjectedValues {
    $0.clock = TestClock()
    $0.now = { Date(timeIntervalSince1970: 0) }
    $0.makeUUID = incrementingUUIDs()
  } operation: {
    try await operation()
  }
}

@Suite("Recipes: a clock, the date, UUIDs and unimplemented values")
struct BuiltInDependencyRecipeTests {
  @Test("The test clock's sleeps return at once and move now to their deadline")
  func testClockAdvancesWithoutWaiting() async throws {
    let clock = TestClock()
    let started = ContinuousClock.now
    try await clock.sleep(for: .seconds(3_600))
    try await clock.sleep(until: clock.now.advanced(by: .seconds(-10)), tolerance: nil)
    #expect(clock.now.offset == .seconds(3_600))
    #expect(ContinuousClock.now - started < .seconds(60))
  }

  @Test("The test clock's sleep throws when its task is cancelled")
  func testClockSleepIsCancellable() async {
    let clock = TestClock()
    let sleeper = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await clock.sleep(for: .seconds(1))
    }
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    #expect(clock.now.offset == .zero)
  }

  @Test("Incrementing UUIDs count from zero, one counter per generator, across tasks")
  func incrementingUUIDsCount() async {
    let first = incrementingUUIDs()
    #expect(first().uuidString == "00000000-0000-0000-0000-000000000000")
    #expect(first().uuidString == "00000000-0000-0000-0000-000000000001")
    #expect(incrementingUUIDs()().uuidString == "00000000-0000-0000-0000-000000000000")

    let shared = incrementingUUIDs()
    let made = await withTaskGroup(of: UUID.self) { group in
      for _ in 0..<300 { group.addTask { shared() } }
      return await group.reduce(into: Set<UUID>()) { $0.insert($1) }
    }
    #expect(made.count == 300)
    #expect(made.contains(UUID(uuidString: "00000000-0000-0000-0000-00000000012B")!))
  }

  @Test("Code under test reads the scope's clock, date and UUIDs")
  func schedulerSeesTheTestValues() async throws {
    let reminder = try await withTestValues {
      let clock = try #require(InjectedValues[\.clock] as? TestClock)
      let reminder = try await ReminderScheduler().snooze()
      #expect(clock.now.offset == .seconds(300))
      return reminder
    }
    #expect(reminder.id.uuidString == "00000000-0000-0000-0000-000000000000")
    #expect(reminder.due == Date(timeIntervalSince1970: 0))
  }

  @Test("Each scope gets fresh test values", arguments: 1...3)
  func eachScopeStartsAfresh(snoozes: Int) async throws {
    try await withTestValues {
      var last: UUID?
      for _ in 0..<snoozes { last = try await ReminderScheduler().snooze().id }
      let hex = String(snoozes - 1, radix: 16)
      #expect(last?.uuidString.hasSuffix(hex) == true)
      let clock = try #require(InjectedValues[\.clock] as? TestClock)
      #expect(clock.now.offset == .seconds(300 * snoozes))
    }
  }

  @Test("Outside a scope, the live values")
  func liveValues() {
    #expect(InjectedValues[\.clock] is ContinuousClock)
    #expect(abs(InjectedValues[\.now]().timeIntervalSinceNow) < 60)
    #expect(InjectedValues[\.makeUUID]() != InjectedValues[\.makeUUID]())
  }

  #if compiler(>=6.2)  // issue handling traits arrived in Swift 6.2
    @Test("An unimplemented value records an issue when called, and none when not")
    func unimplementedValue() async throws {
      // The issue the recipe records is taken out of this test once recorded, and kept here,
      // so that the test checks it and a passing run has no known issue. Other issues stay.
      let recorded = Locked<[String]>([])
      let takeUnimplemented: IssueHandlingTrait = .filterIssues { issue in
        let comments = issue.comments.map(\.rawValue).filter { $0.hasSuffix("is not implemented") }
        recorded.withLock { $0 += comments }
        return comments.isEmpty
      }
      try await takeUnimplemented.provideScope(for: Test.current!, testCase: Test.Case.current) {
        await withInjectedValues {
          $0.recipeAPIClient = UnimplementedAPIClient()
        } operation: {
          _ = InjectedValues[\.recipeAPIClient]
          #expect(recorded.withLock { $0 }.isEmpty, "reading the value records nothing")
          _ = InjectedValues[\.recipeAPIClient].fetch("/cart")
        }
      }
      #expect(recorded.withLock { $0 } == ["APIClient.fetch(/cart) is not implemented"])
    }
  #endif
}
