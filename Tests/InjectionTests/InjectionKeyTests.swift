import Testing

@testable import Injection

// MARK: - Defaults created once

private let singletonCreations = AtomicCounter()

private final class ExpensiveSingleton: Sendable {
  init() { singletonCreations.increment() }
}

private struct SingletonKey: InjectionKey {
  static let currentValue = ExpensiveSingleton()
}

private let computedCreations = AtomicCounter()

private struct FreshValueKey: InjectionKey {
  static var currentValue: Int {
    computedCreations.increment()
    return computedCreations.value
  }
}

// MARK: - Cycles among defaults

private struct CycleAKey: InjectionKey {
  static var currentValue: Int { InjectedValues[CycleBKey.self] + 1 }
}

private struct CycleBKey: InjectionKey {
  static var currentValue: Int { InjectedValues[CycleAKey.self] + 1 }
}

private struct OnceCycleAKey: InjectionKey {
  static let currentValue: Int = InjectedValues[OnceCycleBKey.self] + 1
}

private struct OnceCycleBKey: InjectionKey {
  static let currentValue: Int = InjectedValues[OnceCycleAKey.self] + 1
}

private struct SelfCycleKey: InjectionKey {
  static var currentValue: Int { InjectedValues[SelfCycleKey.self] }
}

/// A chain without a cycle: top reads middle, middle reads bottom.
private struct ChainTopKey: InjectionKey {
  static var currentValue: Int { InjectedValues[ChainMiddleKey.self] + 1 }
}

private struct ChainMiddleKey: InjectionKey {
  static var currentValue: Int { InjectedValues[ChainBottomKey.self] + 1 }
}

private struct ChainBottomKey: InjectionKey {
  static var currentValue: Int { 1 }
}

@Suite("InjectionKey")
struct InjectionKeyTests {
  @Test("A static let default is created exactly once when 100 tasks first resolve it together")
  func staticLetCreatedOnce() async {
    let identities = await withTaskGroup(of: ObjectIdentifier.self) { group in
      for _ in 0..<100 {
        group.addTask { ObjectIdentifier(InjectedValues[SingletonKey.self]) }
      }
      return await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
    }
    #expect(singletonCreations.value == 1)
    #expect(identities.count == 1)
  }

  @Test("A computed default gives a fresh value on every read")
  func computedDefaultIsFresh() {
    let first = InjectedValues[FreshValueKey.self]
    let second = InjectedValues[FreshValueKey.self]
    #expect(second > first)
  }

  @Test("Defaults that read other dependencies resolve the whole chain, outside every scope")
  func chainWithoutCycle() {
    #expect(InjectedValues[ChainTopKey.self] == 3)
    withInjectedValues {
      $0[ChainBottomKey.self] = 10
    } operation: {
      #expect(InjectedValues[ChainBottomKey.self] == 10)
      #expect(InjectedValues[ChainTopKey.self] == 3, "a default never sees a scope's overrides")
    }
  }

  #if DEBUG
    @Test("Concurrent resolutions of one chain on many tasks are not reported as cycles")
    func concurrentChainsAreNotCycles() async {
      let total = await withTaskGroup(of: Int.self) { group in
        for _ in 0..<200 {
          group.addTask { InjectedValues[ChainTopKey.self] + InjectedValues[ChainMiddleKey.self] }
        }
        return await group.reduce(0, +)
      }
      #expect(total == 200 * 5)
    }

    @Test("A cycle among computed defaults stops with the chain of keys")
    func computedCycleStops() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = InjectedValues[CycleAKey.self]
      }
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(
        message.contains("Injection: dependency cycle detected: CycleAKey → CycleBKey → CycleAKey")
      )
    }

    @Test("A cycle among static let defaults stops instead of hanging")
    func staticLetCycleStops() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = InjectedValues[OnceCycleBKey.self]
      }
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(
        message.contains(
          "Injection: dependency cycle detected: OnceCycleBKey → OnceCycleAKey → OnceCycleBKey"
        )
      )
    }

    @Test("A key whose default resolves itself stops with a one-key cycle")
    func selfCycleStops() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = InjectedValues[SelfCycleKey.self]
      }
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(message.contains("Injection: dependency cycle detected: SelfCycleKey → SelfCycleKey"))
    }
  #endif
}
