import Testing

@testable import Injection

// Learning which keys an accessor's getter reads (`KeyProbing.swift`): the getter runs on values
// whose chain is a `ProbeNode`, and every read that reaches it is recorded.

private struct ProbedFirstKey: InjectionKey {
  static let currentValue = 1
}

private struct ProbedSecondKey: InjectionKey {
  static let currentValue = 2
}

private struct ProbedThirdKey: InjectionKey {
  static let currentValue = 3
}

/// What a getter saw while it ran, for the tests to look at afterwards.
private let probedSightings = Locked<[Int]>([])
/// Values a getter kept after it returned.
private let keptProbeValues = Locked<[InjectedValues]>([])

extension InjectedValues {
  fileprivate var probedFirst: Int {
    get { self[ProbedFirstKey.self] }
    set { self[ProbedFirstKey.self] = newValue }
  }

  fileprivate var probedSecond: Int {
    get { Self[ProbedSecondKey.self] }
    set { Self[ProbedSecondKey.self] = newValue }
  }

  fileprivate var probedThird: Int {
    get { self[ProbedThirdKey.self] }
    set { self[ProbedThirdKey.self] = newValue }
  }

  /// Reads through all three routes: the instance, the type (seed style) and another accessor.
  fileprivate var probedAllStyles: Int {
    self[ProbedFirstKey.self] + Self[ProbedSecondKey.self] + InjectedValues[\.probedThird]
  }

  /// Reads only through a snapshot of the current values, and records what it saw.
  fileprivate var probedThroughCurrent: Int {
    let value = InjectedValues.current[ProbedFirstKey.self]
    probedSightings.withLock { $0.append(value) }
    return value
  }

  /// Keeps the values it runs on, then reads one key.
  fileprivate var probedKeepingItself: Int {
    keptProbeValues.withLock { $0.append(self) }
    return self[ProbedSecondKey.self]
  }
}

@Suite("Key probing")
struct KeyProbingTests {
  @Test("A probe learns every key a getter reads, in order, through every accessor style")
  func learnsEveryStyleInOrder() {
    let keys = InjectedValues._keysRead(by: \.probedAllStyles).map(ObjectIdentifier.init)
    let expected: [any InjectionKey.Type] = [
      ProbedFirstKey.self, ProbedSecondKey.self, ProbedThirdKey.self,
    ]
    #expect(keys == expected.map(ObjectIdentifier.init))
  }

  @Test("A probe learns the same keys inside a scope that overrides them, and leaves it intact")
  func learnsInsideAScope() {
    withInjectedValues {
      $0.probedFirst = 10
      $0.probedThird = 30
    } operation: {
      let keys = InjectedValues._keysRead(by: \.probedAllStyles).map(ObjectIdentifier.init)
      let expected: [any InjectionKey.Type] = [
        ProbedFirstKey.self, ProbedSecondKey.self, ProbedThirdKey.self,
      ]
      #expect(keys == expected.map(ObjectIdentifier.init))
      #expect(InjectedValues[\.probedAllStyles] == 10 + 2 + 30)
    }
  }

  @Test("Inside a probed getter, current has no overrides, and reads through it are learnt")
  func currentInsideAProbe() {
    probedSightings.withLock { $0 = [] }
    let keys = withInjectedValues {
      $0.probedFirst = 10
    } operation: {
      InjectedValues._keysRead(by: \.probedThroughCurrent).map(ObjectIdentifier.init)
    }
    #expect(keys == [ObjectIdentifier(ProbedFirstKey.self)])
    #expect(probedSightings.withLock { $0 } == [ProbedFirstKey.currentValue])
  }

  @Test("Values a probed getter keeps can be read later, and only the probe learnt their reads")
  func keptProbeValuesStayHarmless() throws {
    keptProbeValues.withLock { $0 = [] }
    let keys = InjectedValues._keysRead(by: \.probedKeepingItself).map(ObjectIdentifier.init)
    #expect(keys == [ObjectIdentifier(ProbedSecondKey.self)])
    let kept = keptProbeValues.withLock { $0 }
    try #require(kept.count == 1)
    // Read outside any probe, and then inside another probe: defaults, and nothing recorded
    // into the other probe that it did not read itself.
    #expect(kept[0][ProbedFirstKey.self] == ProbedFirstKey.currentValue)
    let other = InjectedValues._keysRead(by: \.probedFirst).map(ObjectIdentifier.init)
    #expect(other == [ObjectIdentifier(ProbedFirstKey.self)])
    #expect(kept[0][ProbedThirdKey.self] == ProbedThirdKey.currentValue)
  }
}
