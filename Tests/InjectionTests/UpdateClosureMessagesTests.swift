import Dispatch
import Testing

@testable import Injection

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Messages printed, not stops: a scope's end that waits for a slow build, and seed-style
// accessors after `$0 = snapshot` (debug builds). Each runs in a child process (an exit test),
// whose standard error the test reads.

private struct SlowBuildKey: InjectionKey {
  static let currentValue = 0
}

private struct SeedCounterKey: InjectionKey {
  static let currentValue = 0
}

extension InjectedValues {
  fileprivate var slowBuild: Int {
    get { self[SlowBuildKey.self] }
    set { self[SlowBuildKey.self] = newValue }
  }

  fileprivate var seedCounter: Int {
    get { Self[SeedCounterKey.self] }
    set { Self[SeedCounterKey.self] = newValue }
  }
}

/// Ends a scope while another thread is still building its value, for 6 seconds.
private func endScopeWhileASlowBuildRuns() {
  let started = DispatchSemaphore(value: 0)
  let group = DispatchGroup()
  withInjectedValues {
    $0.lazy(\.slowBuild) {
      started.signal()
      sleep(6)  // past the 5 seconds after which the library prints its message
      return 1
    }
  } operation: {
    let values = InjectedValues.current
    DispatchQueue.global().async(group: group) {
      withInjectedValues(values) { _ = InjectedValues[\.slowBuild] }
    }
    started.wait()
  }
  group.wait()
}

#if os(macOS) || os(Linux)  // the platforms with exit tests (none on iOS, tvOS, watchOS)
  @Suite("Messages that update closures and scopes print")
  struct UpdateClosureMessagesTests {
    @Test("A scope's end that waits 5 seconds for a slow build says so, and calls it no cycle")
    func endWaitingForASlowBuild() async {
      let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
        endScopeWhileASlowBuildRuns()
      }
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(
        message.contains("lazy(SlowBuildKey) at InjectionTests/UpdateClosureMessagesTests.swift:")
      )
      #expect(message.contains("while the end of its scope waits for it"), "stderr: \(message)")
      #expect(!message.contains("cycle"), "stderr: \(message)")
      #expect(!message.contains("this read"), "stderr: \(message)")
    }

    #if DEBUG
      @Test(
        "After $0 = snapshot, a seed-style += prints one message naming the key, in debug builds"
      )
      func seedStyleAccessorAfterAssigningASnapshot() async {
        let result = await #expect(
          processExitsWith: .success,
          observing: [\.standardErrorContent]
        ) {
          let snapshot = withInjectedValues {
            $0.seedCounter = 10
          } operation: {
            InjectedValues.current
          }
          let seen = withInjectedValues {
            $0 = snapshot
            $0.seedCounter += 1  // reads the values being built: 0, not 10
          } operation: {
            InjectedValues[\.seedCounter]
          }
          if seen != 1 { exit(2) }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
          message.components(separatedBy: "assigned $0 other values and read SeedCounterKey").count
            == 2,
          "stderr: \(message)"
        )
        #expect(message.contains("withInjectedValues(snapshot)"), "stderr: \(message)")
      }

      @Test("Seed-style writes after $0 = snapshot, without a seed-style read, print nothing")
      func seedStyleWriteAfterAssigningASnapshot() async {
        let result = await #expect(
          processExitsWith: .success,
          observing: [\.standardErrorContent]
        ) {
          let snapshot = InjectedValues.current
          let seen = withInjectedValues {
            $0 = snapshot
            $0.seedCounter = 3
          } operation: {
            InjectedValues[\.seedCounter]
          }
          if seen != 3 { exit(2) }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(!message.contains("Injection:"), "stderr: \(message)")
      }
    #endif
  }
#endif
