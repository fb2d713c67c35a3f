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

// MARK: - Two values built on first use whose factories read each other, on two threads

private struct RingLazyAKey: InjectionKey { static let currentValue = 0 }
private struct RingLazyBKey: InjectionKey { static let currentValue = 0 }

extension InjectedValues {
  fileprivate var ringLazyA: Int {
    get { self[RingLazyAKey.self] }
    set { self[RingLazyAKey.self] = newValue }
  }

  fileprivate var ringLazyB: Int {
    get { Self[RingLazyBKey.self] }
    set { Self[RingLazyBKey.self] = newValue }
  }
}

// MARK: - A slow computed default that two threads read at once, with no cycle

private struct SlowComputedKey: InjectionKey {
  static var currentValue: Int {
    usleep(6_500_000)
    return 6
  }
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

/// Takes about 1.2 seconds.
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

/// How often `text` contains `part`.
private func occurrences(of part: String, in text: String) -> Int {
  text.components(separatedBy: part).count - 1
}

#if os(macOS) || os(Linux)  // the platforms with exit tests (none on iOS, tvOS, watchOS)
  @Suite("Waits for another thread's work, and cycles through other threads")
  struct CrossThreadCycleTests {
    @Test(
      "A factory that waits for a task reading its own value prints one message naming its site, and goes on"
    )
    func factoryWaitingForItsOwnValueReportsAndWaits() async {
      let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
        let value = withInjectedValues {
          $0.lazy(\.handOffLazy) {
            let done = DispatchSemaphore(value: 0)
            Task {
              _ = InjectedValues[\.handOffLazy]  // waits for this very factory
              done.signal()
            }
            // Gives up after 7 seconds, past the 5 after which the library prints its message.
            _ = done.wait(timeout: .now() + .seconds(7))
            return 1
          }
        } operation: {
          InjectedValues[\.handOffLazy]
        }
        if value != 1 { exit(2) }
      }
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(
        occurrences(
          of: "Injection: lazy(HandOffLazyKey) at InjectionTests/CrossThreadCycleTests.swift:",
          in: message
        ) == 1,
        "stderr: \(message)"
      )
      #expect(
        message.contains("for 5 seconds while this read waits for it"),
        "stderr: \(message)"
      )
      #expect(
        message.contains("waits for work on another thread that reads this value"),
        "stderr: \(message)"
      )
    }

    @Test("Two factories that read each other's values on two threads stop with the chain")
    func twoThreadLazyRingStops() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let started = AtomicCounter()
        let waitForBoth: @Sendable () -> Void = {
          started.increment()
          while started.value < 2 { sched_yield() }
        }
        withInjectedValues {
          $0.lazy(\.ringLazyA) {
            waitForBoth()
            return InjectedValues[\.ringLazyB] + 1
          }
          $0.lazy(\.ringLazyB) {
            waitForBoth()
            return InjectedValues[\.ringLazyA] + 1
          }
        } operation: {
          let readA = InjectedValues.current.bind { _ = InjectedValues[\.ringLazyA] }
          let readB = InjectedValues.current.bind { _ = InjectedValues[\.ringLazyB] }
          joinOnThisThread([startThread(readA), startThread(readB)])
        }
      }
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      let chains = [
        "RingLazyAKey → RingLazyBKey → RingLazyAKey", "RingLazyBKey → RingLazyAKey → RingLazyBKey",
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
        waitOnThisThread(group)
        if results.withLock({ $0.sorted() }) != [2, 2, 3, 3] { exit(2) }
      }
    }

    @Test("Two threads that read a slow computed default at once both finish")
    func slowComputedDefaultOnTwoThreads() async {
      let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
        let threads = [
          startThread { if InjectedValues[SlowComputedKey.self] != 6 { exit(2) } },
          startThread { if InjectedValues[SlowComputedKey.self] != 6 { exit(2) } },
        ]
        joinOnThisThread(threads)
      }
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      // Swift creates each computed default on each thread, and the library prints nothing.
      #expect(!message.contains("Injection:"), "stderr: \(message)")
      #expect(!message.contains("dependency cycle detected"), "stderr: \(message)")
    }
  }
#endif
