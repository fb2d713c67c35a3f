import Testing

@testable import Injection

/// A family of keys, one per tag type, so a test can override many distinct keys.
private struct TaggedKey<Tag>: InjectionKey {
  static var currentValue: Int { -1 }
}

private enum T0 {}
private enum T1 {}
private enum T2 {}
private enum T3 {}
private enum T4 {}
private enum T5 {}
private enum T6 {}
private enum T7 {}

/// Sets 64 distinct keys, `TaggedKey<(A, B)>` for every pair of tags, to `base + index`.
private func setSixtyFour(_ values: inout InjectedValues, base: Int) {
  func row<A>(_: A.Type, _ offset: Int) {
    values[TaggedKey<(A, T0)>.self] = base + offset
    values[TaggedKey<(A, T1)>.self] = base + offset + 1
    values[TaggedKey<(A, T2)>.self] = base + offset + 2
    values[TaggedKey<(A, T3)>.self] = base + offset + 3
    values[TaggedKey<(A, T4)>.self] = base + offset + 4
    values[TaggedKey<(A, T5)>.self] = base + offset + 5
    values[TaggedKey<(A, T6)>.self] = base + offset + 6
    values[TaggedKey<(A, T7)>.self] = base + offset + 7
  }
  row(T0.self, 0)
  row(T1.self, 8)
  row(T2.self, 16)
  row(T3.self, 24)
  row(T4.self, 32)
  row(T5.self, 40)
  row(T6.self, 48)
  row(T7.self, 56)
}

@Suite("Override chain")
struct OverrideChainTests {
  @Test("64 overrides in one scope are all visible, through the index")
  func sixtyFourOverrides() {
    withInjectedValues {
      setSixtyFour(&$0, base: 1000)
    } operation: {
      #expect(InjectedValues[TaggedKey<(T0, T0)>.self] == 1000)
      #expect(InjectedValues[TaggedKey<(T3, T5)>.self] == 1029)
      #expect(InjectedValues[TaggedKey<(T7, T7)>.self] == 1063)
      #expect(InjectedValues[TaggedKey<T0>.self] == -1, "a key that was not set")
      #expect(InjectedValues.current.visibleOverrides.count == 64)
    }
  }

  @Test("Inner scopes shadow indexed outer overrides, and the outer ones come back after")
  func shadowingAcrossIndexes() {
    withInjectedValues {
      setSixtyFour(&$0, base: 0)
    } operation: {
      withInjectedValues {
        $0[TaggedKey<(T1, T1)>.self] = -9
      } operation: {
        #expect(InjectedValues[TaggedKey<(T1, T1)>.self] == -9)
        withInjectedValues {
          setSixtyFour(&$0, base: 500)
        } operation: {
          #expect(InjectedValues[TaggedKey<(T1, T1)>.self] == 509)
          #expect(InjectedValues.current.visibleOverrides.count == 64)
        }
        #expect(InjectedValues[TaggedKey<(T1, T1)>.self] == -9)
      }
      #expect(InjectedValues[TaggedKey<(T1, T1)>.self] == 9)
    }
  }

  @Test("Ten nested scopes, each overriding one key, see every override", arguments: [1, 10, 25])
  func nestedScopes(depth: Int) {
    func nest(_ level: Int) {
      if level == depth {
        #expect(InjectedValues[\.count] == depth)
        #expect(InjectedValues[\.name] == "level 1")
        return
      }
      withInjectedValues {
        $0.count += 1
        if level == 0 { $0.name = "level 1" }
      } operation: {
        nest(level + 1)
      }
    }
    nest(0)
  }

  @Test("Many writes to a snapshot outside a scope stay correct when it is re-entered")
  func manyWritesToSnapshot() {
    var values = InjectedValues.current
    for index in 0..<100 {
      values.count = index
      values.name = "write \(index)"
    }
    withInjectedValues(values) {
      #expect(InjectedValues[\.count] == 99)
      #expect(InjectedValues[\.name] == "write 99")
    }
  }

  // MARK: - Bounded growth

  @Test(
    "Rewriting one key 1,000 times keeps one value alive",
    arguments: [WriteStyle.snapshot, .updateClosure, .seedStyleUpdateClosure]
  )
  func rewritesKeepOneValue(style: WriteStyle) {
    let tracker = LifeTracker()
    let keptAlive = style.write(1_000, tracker: tracker) { values in
      #expect(values[TrackedKey.self]?.index == 999)
      return tracker.alive
    }
    #expect(keptAlive == 1)
    #expect(tracker.alive == 0)  // and none once the value or the scope is gone
    #expect(tracker.created == 1_000)
  }

  @Test(
    "A million writes of one key, then the release, do not crash",
    arguments: [WriteStyle.snapshot, .updateClosure]
  )
  func millionWritesThenRelease(style: WriteStyle) {
    let tracker = LifeTracker()
    let keptAlive = style.write(1_000_000, tracker: tracker) { _ in tracker.alive }
    #expect(keptAlive == 1)
    #expect(tracker.alive == 0)
  }
}

// MARK: - Helpers for bounded growth

/// Counts the `Tracked` objects created and still alive. Used from one thread at a time.
private final class LifeTracker: @unchecked Sendable {
  // Safe: each test owns its tracker and uses it on its own thread only.
  private(set) var created = 0
  private(set) var alive = 0
  func born() {
    created += 1
    alive += 1
  }
  func died() { alive -= 1 }
}

/// A value whose life the tracker counts.
private final class Tracked: Sendable {
  let index: Int
  private let tracker: LifeTracker
  init(_ index: Int, tracker: LifeTracker) {
    self.index = index
    self.tracker = tracker
    tracker.born()
  }
  deinit { tracker.died() }
}

private struct TrackedKey: InjectionKey {
  static var currentValue: Tracked? { nil }
}

extension InjectedValues {
  fileprivate var tracked: Tracked? {
    get { self[TrackedKey.self] }
    set { self[TrackedKey.self] = newValue }
  }

  fileprivate static var seedTracked: Tracked? {
    get { Self[TrackedKey.self] }
    set { Self[TrackedKey.self] = newValue }
  }
}

/// Where the writes go.
enum WriteStyle: String, CustomTestStringConvertible, Sendable {
  /// To a snapshot, outside any scope.
  case snapshot
  /// To `$0` in one update closure, through an instance accessor.
  case updateClosure
  /// In one update closure, through a seed-style (static) accessor.
  case seedStyleUpdateClosure

  var testDescription: String { rawValue }

  /// Writes `count` new values of `TrackedKey`, then runs `check` on the values written (inside
  /// the scope, for the update-closure styles), and returns its result once they are released.
  fileprivate func write<Result>(
    _ count: Int,
    tracker: LifeTracker,
    check: (InjectedValues) -> Result
  ) -> Result {
    switch self {
    case .snapshot:
      var values = InjectedValues.current
      for index in 0..<count { values.tracked = Tracked(index, tracker: tracker) }
      return check(values)
    case .updateClosure:
      return withInjectedValues {
        for index in 0..<count { $0.tracked = Tracked(index, tracker: tracker) }
      } operation: {
        check(InjectedValues.current)
      }
    case .seedStyleUpdateClosure:
      return withInjectedValues { _ in
        for index in 0..<count { InjectedValues.seedTracked = Tracked(index, tracker: tracker) }
      } operation: {
        check(InjectedValues.current)
      }
    }
  }
}
