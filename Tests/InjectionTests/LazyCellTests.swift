import Dispatch
import Testing

@testable import Injection

private struct CellLabelKey: InjectionKey {
  static let currentValue = 0
}

private let site = OverrideSite(.scope, depth: 1, fileID: #fileID, line: #line)

/// A cell whose factory counts its runs and, if `gate` is given, waits for it first, and whose
/// teardown counts its runs in `teardowns`.
private func countingCell(
  builds: AtomicCounter,
  teardowns: AtomicCounter = AtomicCounter(),
  started: DispatchSemaphore? = nil,
  gate: DispatchSemaphore? = nil
) -> LazyCell<Int> {
  LazyCell<Int>(
    key: CellLabelKey.self,
    site: site,
    make: {
      started?.signal()
      gate?.wait()
      builds.increment()
      return 42
    },
    teardown: .sync { _ in teardowns.increment() }
  )
}

/// The states of `LazyCell`, driven directly: orders that the public API reaches only by chance.
@Suite("A value built once per scope, state by state")
struct LazyCellTests {
  @Test("One scope opens a declaration; the value is built once and closed once")
  func openBuildClose() {
    let builds = AtomicCounter()
    let teardowns = AtomicCounter()
    let cell = countingCell(builds: builds, teardowns: teardowns)
    #expect(cell.tearDown() == nil)
    #expect(teardowns.value == 0, "declared: nothing to tear down")
    #expect(cell.open(seeing: nil, in: LazyScope()))
    #expect(!cell.open(seeing: nil, in: LazyScope()), "a second scope cannot take it")
    #expect(cell.read() == 42)
    #expect(cell.read() == 42)
    #expect(builds.value == 1)
    #expect(cell.tearDown() == nil, "a synchronous teardown leaves nothing to await")
    #expect(cell.tearDown() == nil)
    #expect(teardowns.value == 1, "built: torn down once")
    #expect(cell.read() == 42, "still readable after its teardown, until it closes")
    #expect(!cell.close(), "its teardown has run")
    #expect(!cell.close(), "a second close has nothing to do")
  }

  @Test("A value built but not torn down when it closes is reported for its teardown")
  func closeReportsAPendingTeardown() {
    let cell = countingCell(builds: AtomicCounter())
    #expect(cell.open(seeing: nil, in: LazyScope()))
    _ = cell.read()
    #expect(cell.close())
  }

  @Test("A scope tears its values down latest-built first, each once, then closes them")
  func scopeEndsLatestBuiltFirst() {
    let scope = LazyScope()
    let order = Locked<[Int]>([])
    let cells = (0..<3).map { number in
      LazyCell<Int>(
        key: CellLabelKey.self,
        site: site,
        make: { number },
        teardown: .sync { value in order.withLock { $0.append(value) } }
      )
    }
    for cell in cells { #expect(scope.open(cell, seeing: nil)) }
    for number in [1, 0, 2] { _ = cells[number].read() }
    scope.end()
    #expect(order.withLock { $0 } == [2, 0, 1])
    #expect(cells.allSatisfy { !$0.close() }, "every cell closed, nothing left to tear down")
  }

  @Test("Readers on other threads wait for one build and get its value")
  func readersWaitForTheBuild() {
    for _ in 0..<20 {
      let builds = AtomicCounter()
      let started = DispatchSemaphore(value: 0)
      let gate = DispatchSemaphore(value: 0)
      let cell = UncheckedSendable(countingCell(builds: builds, started: started, gate: gate))
      #expect(cell.value.open(seeing: nil, in: LazyScope()))
      let results = Locked<[Int]>([])
      let group = DispatchGroup()
      DispatchQueue.global().async(group: group) {
        let value = cell.value.read()
        results.withLock { $0.append(value) }
      }
      started.wait()  // the first reader is building
      for _ in 0..<3 {
        DispatchQueue.global().async(group: group) {
          let value = cell.value.read()
          results.withLock { $0.append(value) }
        }
      }
      gate.signal()
      group.wait()
      #expect(results.withLock { $0 } == [42, 42, 42, 42])
      #expect(builds.value == 1)
    }
  }

  @Test("Closing waits for a build in flight on another thread, then reports its teardown")
  func closeWaitsForABuildInFlight() {
    let builds = AtomicCounter()
    let started = DispatchSemaphore(value: 0)
    let gate = DispatchSemaphore(value: 0)
    let cell = UncheckedSendable(countingCell(builds: builds, started: started, gate: gate))
    #expect(cell.value.open(seeing: nil, in: LazyScope()))
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      _ = cell.value.read()
      done.signal()
    }
    started.wait()
    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) { gate.signal() }
    #expect(cell.value.close(), "the build finished while closing waited, and needs its teardown")
    #expect(builds.value == 1)
    done.wait()
  }
}
