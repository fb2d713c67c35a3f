import Injection
import InjectionTesting
import Testing

/// Numbers handed out by update closures, one per test case.
private let serials = Locked<(next: Int, seen: Set<Int>)>((0, []))

private func nextSerial() -> Int {
  serials.withLock {
    $0.next += 1
    return $0.next
  }
}

/// Records that a test case saw `serial`; returns `false` if another case saw it first.
private func firstToSee(_ serial: Int) -> Bool {
  serials.withLock { $0.seen.insert(serial).inserted }
}

@Suite("Parallel test cases", .injecting { $0.tally = Tally() })
struct ParallelIsolationTests {
  @Test(
    "200 test cases running in parallel each see only their own mocks",
    .injecting { $0.count = nextSerial() },
    arguments: 0..<200
  )
  func noCrossTalk(argument: Int) async throws {
    // The suite's trait gave this case a tally of its own; the test's trait, a serial no other
    // case got. The body then overrides the same key again with its argument.
    let tally = InjectedValues[\.tally]
    let serial = InjectedValues[\.count]
    #expect(tally !== TallyKey.currentValue)
    #expect(tally.claim(by: argument) == [argument])
    #expect(firstToSee(serial))

    for round in 0..<5 {
      try await Task.sleep(nanoseconds: UInt64(argument % 3) * 100_000)
      #expect(InjectedValues[\.count] == serial)
      #expect(InjectedValues[\.tally] === tally)
      await withInjectedValues {
        $0.count = argument * 10 + round
      } operation: {
        await Task.yield()
        let fromChild = await Task { InjectedValues[\.count] }.value
        #expect(fromChild == argument * 10 + round)
        #expect(InjectedValues[\.count] == argument * 10 + round)
      }
    }
    #expect(tally.owners == [argument])
  }
}
