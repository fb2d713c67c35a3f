import Dispatch
import Testing

@testable import Injection

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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

// MARK: - Defaults created outside every scope

private struct SinkKey: InjectionKey {
  static let currentValue = "live-sink"
}

/// A `static let` default derived from another dependency.
private struct LoggerKey: InjectionKey {
  static let currentValue = "logger(\(InjectedValues[SinkKey.self]))"
}

/// A computed default derived from another dependency.
private struct ComputedLoggerKey: InjectionKey {
  static var currentValue: String { "computed-logger(\(InjectedValues[SinkKey.self]))" }
}

/// Many tasks create this default at once, each in its own scope.
private struct RacedLoggerKey: InjectionKey {
  static let currentValue = RacedLogger(sink: InjectedValues[SinkKey.self])
}

private final class RacedLogger: Sendable {
  let sink: String
  init(sink: String) { self.sink = sink }
}

extension InjectedValues {
  fileprivate var sink: String {
    get { self[SinkKey.self] }
    set { self[SinkKey.self] = newValue }
  }

  /// The idiom for a dependency derived from scoped ones: a read-only accessor.
  fileprivate var scopedLogger: String { "logger(\(sink))" }
}

// MARK: - A cycle entered from two threads

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

  @Test("A static let default reads other keys outside every scope, whichever scope reads it first")
  func staticLetDefaultIsCreatedOutsideScopes() {
    let first = withInjectedValues {
      $0.sink = "mock-sink"
    } operation: {
      InjectedValues[LoggerKey.self]
    }
    #expect(first == "logger(live-sink)")
    #expect(InjectedValues[LoggerKey.self] == "logger(live-sink)")
  }

  @Test("A computed default reads other keys outside every scope too")
  func computedDefaultIsCreatedOutsideScopes() {
    withInjectedValues {
      $0.sink = "mock-sink"
    } operation: {
      #expect(InjectedValues[ComputedLoggerKey.self] == "computed-logger(live-sink)")
      #expect(InjectedValues.current[ComputedLoggerKey.self] == "computed-logger(live-sink)")
    }
  }

  @Test("A derived dependency that should follow scopes is a read-only accessor")
  func derivedDependencyIdiom() {
    #expect(InjectedValues[\.scopedLogger] == "logger(live-sink)")
    withInjectedValues {
      $0.sink = "mock-sink"
    } operation: {
      #expect(InjectedValues[\.scopedLogger] == "logger(mock-sink)")
    }
  }

  @Test("Tasks racing to create one default in different scopes all get the same value")
  func racingDefaultsInScopesAgree() async {
    let identities = await withTaskGroup(of: ObjectIdentifier.self) { group in
      for index in 0..<100 {
        group.addTask {
          withInjectedValues {
            $0.sink = "sink-\(index)"
          } operation: {
            let logger = InjectedValues[RacedLoggerKey.self]
            #expect(logger.sink == "live-sink")
            return ObjectIdentifier(logger)
          }
        }
      }
      return await group.reduce(into: Set()) { $0.insert($1) }
    }
    #expect(identities.count == 1)
  }

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

  // A cycle on one thread stops in every build: the suite runs in release too (`.ci/run`).

  #if os(macOS) || os(Linux)  // the platforms with exit tests (none on iOS, tvOS, watchOS)
    @Test("A cycle among computed defaults stops with the chain of keys")
    func computedCycleStops() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = InjectedValues[CycleAKey.self]
      }
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(cycleChain(in: message) == "CycleAKey → CycleBKey → CycleAKey", "stderr: \(message)")
    }

    @Test("A cycle among static let defaults stops instead of hanging")
    func staticLetCycleStops() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = InjectedValues[OnceCycleBKey.self]
      }
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(
        cycleChain(in: message) == "OnceCycleBKey → OnceCycleAKey → OnceCycleBKey",
        "stderr: \(message)"
      )
    }

    @Test("A key whose default resolves itself stops with a one-key cycle")
    func selfCycleStops() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = InjectedValues[SelfCycleKey.self]
      }
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(cycleChain(in: message) == "SelfCycleKey → SelfCycleKey", "stderr: \(message)")
    }
  #endif
}
