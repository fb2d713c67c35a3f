import Testing

@testable import Injection

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Every key here is private to this file: tests elsewhere never see its global values.

private let onceCreations = AtomicCounter()

/// A default with a side effect: each creation is counted.
private final class CountedSingleton: Sendable {
  init() { onceCreations.increment() }
}

private struct OnceRacedKey: InjectionKey {
  static let currentValue = CountedSingleton()
}

/// Set globally for the first time while `OnceRacedKey` is first resolved.
private struct FirstGlobalKey: InjectionKey {
  static let currentValue = 0
}

extension InjectedValues {

  fileprivate var onceRaced: CountedSingleton {
    get { self[OnceRacedKey.self] }
    set { self[OnceRacedKey.self] = newValue }
  }

  fileprivate var firstGlobal: Int {
    get { self[FirstGlobalKey.self] }
    set { self[FirstGlobalKey.self] = newValue }
  }
}

/// Reads through the wrapper, as app code does.
private struct RacedReader: Sendable {
  @Injected(\.onceRaced) var onceRaced
}

@Suite("A static let default under contention")
struct DefaultContentionTests {
  @Test(
    "A static let default first resolved by 100 threads at once, through scopes, the wrapper and a global write, is created once"
  )
  func staticLetDefaultOnOneHundredThreads() {
    let identities = IdentityLog()
    let threads = 100
    onThreadsAtOnce(threads + 1) { index in
      guard index < threads else {
        // Meanwhile, one more thread sets another key globally for the first time.
        InjectedValues[\.firstGlobal] = 1
        return
      }
      switch index % 4 {
      case 0:
        identities.record(InjectedValues[\.onceRaced])
      case 1:
        // In a scope that overrides another key: the read falls through to the default.
        withInjectedValues {
          $0.scopeLabel = "thread-\(index)"
        } operation: {
          identities.record(InjectedValues[\.onceRaced])
        }
      case 2:
        identities.record(RacedReader().onceRaced)
      default:
        identities.record(InjectedValues.current[OnceRacedKey.self])
      }
    }
    removeGlobal(FirstGlobalKey.self)

    #expect(onceCreations.value == 1)
    #expect(identities.count == threads)
    #expect(identities.distinct == 1)
  }
}

// MARK: - Helpers

/// The identities of the objects the threads resolved.
private final class IdentityLog: @unchecked Sendable {
  // Safe: `identities` is touched only under `lock`.
  private let lock = Lock()
  private var identities: [ObjectIdentifier] = []

  func record(_ object: AnyObject) { lock.withLock { identities.append(ObjectIdentifier(object)) } }
  var count: Int { lock.withLock { identities.count } }
  var distinct: Int { lock.withLock { Set(identities).count } }
}

/// Runs `body(index)` for each index on `count` new threads, released together once all have
/// started, and returns when all have finished.
private func onThreadsAtOnce(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
  let gate = StartGate()
  let threads = (0..<count).map { index in
    startThread {
      gate.arriveAndWait(expected: count)
      body(index)
    }
  }
  for thread in threads { pthread_join(thread, nil) }
}

/// Holds threads until all of them have arrived. (`pthread_barrier_t` is missing on Darwin.)
private final class StartGate: @unchecked Sendable {
  // Safe: `arrived` is touched only under `lock`.
  private let lock = Lock()
  private var arrived = 0

  func arriveAndWait(expected: Int) {
    lock.withLock { arrived += 1 }
    while lock.withLock({ arrived < expected }) { sched_yield() }
  }
}
