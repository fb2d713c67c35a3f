import Dispatch
import Testing

@testable import Injection

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Every key here is private to this file. The tests that stop the program run in child
// processes (exit tests), so the defaults they start never run in the test process.

// MARK: - A default that waits for a read of its own key on another thread

private struct HandOffKey: InjectionKey {
  static let currentValue: Int = {
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      _ = InjectedValues[HandOffKey.self]  // waits for this very initialization
      done.signal()
    }
    done.wait()
    return 1
  }()
}

// MARK: - A factory that waits for a task that reads its own value

private struct HandOffLazyKey: InjectionKey {
  static let currentValue = 0
}

extension InjectedValues {
  fileprivate var handOffLazy: Int {
    get { self[HandOffLazyKey.self] }
    set { self[HandOffLazyKey.self] = newValue }
  }
}

// MARK: - Slow defaults that many threads wait for, with no cycle

/// Takes about 1.2 seconds, longer than two scans of the watchdog.
private struct SlowInnerKey: InjectionKey {
  static let currentValue: Int = {
    usleep(1_200_000)
    return 2
  }()
}

private struct SlowOuterKey: InjectionKey {
  static let currentValue: Int = InjectedValues[SlowInnerKey.self] + 1
}

// MARK: - Three threads in a ring

/// Each default, once started, waits until all three have started, then reads the next.
private let ringStarts = AtomicCounter()

private func waitForTheRing() {
  ringStarts.increment()
  while ringStarts.value < 3 { sched_yield() }
}

private struct RingAKey: InjectionKey {
  static let currentValue: Int = {
    waitForTheRing()
    return InjectedValues[RingBKey.self] + 1
  }()
}

private struct RingBKey: InjectionKey {
  static let currentValue: Int = {
    waitForTheRing()
    return InjectedValues[RingCKey.self] + 1
  }()
}

private struct RingCKey: InjectionKey {
  static let currentValue: Int = {
    waitForTheRing()
    return InjectedValues[RingAKey.self] + 1
  }()
}

#if DEBUG
  @Suite("Cycles through other threads, in debug builds")
  struct CrossThreadCycleTests {
    @Test("A default that waits for a read of its own key on another thread stops with a message")
    func defaultWaitingForItsOwnKeyStops() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = InjectedValues[HandOffKey.self]
      }
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(
        message.contains(
          "Injection: the default of HandOffKey has been under construction for 5 seconds"
        ),
        "stderr: \(message)"
      )
      #expect(message.contains("may go through another thread"), "stderr: \(message)")
    }

    @Test("A factory that waits for a task reading its own value stops with the declaration site")
    func factoryWaitingForItsOwnValueStops() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        withInjectedValues {
          $0.lazy(\.handOffLazy) {
            let done = DispatchSemaphore(value: 0)
            Task {
              _ = InjectedValues[\.handOffLazy]  // waits for this very factory
              done.signal()
            }
            done.wait()
            return 1
          }
        } operation: {
          _ = InjectedValues[\.handOffLazy]
        }
      }
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(
        message.contains(
          "Injection: HandOffLazyKey, declared with lazy(_:_:) at "
            + "InjectionTests/CrossThreadCycleTests.swift:"
        ),
        "stderr: \(message)"
      )
      #expect(
        message.contains("seems to wait for a read of its own value on another thread or task"),
        "stderr: \(message)"
      )
    }

    @Test("A cycle of three static let defaults entered from three threads stops with the chain")
    func threeThreadRingStops() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        // Threads of their own: the three spin until all have started, more than GCD may run.
        let threads = [
          startThread { _ = InjectedValues[RingAKey.self] },
          startThread { _ = InjectedValues[RingBKey.self] },
          startThread { _ = InjectedValues[RingCKey.self] },
        ]
        for thread in threads { pthread_join(thread, nil) }
      }
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      let chains = [
        "RingAKey → RingBKey → RingCKey → RingAKey",
        "RingBKey → RingCKey → RingAKey → RingBKey",
        "RingCKey → RingAKey → RingBKey → RingCKey",
      ]
      #expect(chains.contains(cycleChain(in: message) ?? ""), "stderr: \(message)")
    }

    @Test("Threads waiting for one slow static let default, with no cycle, are not stopped")
    func slowDefaultIsNoCycle() async {
      await #expect(processExitsWith: .success) {
        let group = DispatchGroup()
        let results = Locked([Int]())
        for index in 0..<4 {
          DispatchQueue.global().async(group: group) {
            let value =
              index.isMultiple(of: 2)
              ? InjectedValues[SlowOuterKey.self] : InjectedValues[SlowInnerKey.self]
            results.withLock { $0.append(value) }
          }
        }
        group.wait()
        if results.withLock({ $0.sorted() }) != [2, 2, 3, 3] { exit(2) }
        usleep(1_200_000)  // two more scans of the watchdog, with every chain empty
      }
    }
  }
#endif
