import Dispatch
import Testing

@testable import Injection

private struct CellLabelKey: InjectionKey {
  static let currentValue = 0
}

/// The phases of `LazyCell`, driven directly: races that the public API reaches only rarely.
@Suite("A value built once per scope, phase by phase")
struct LazyCellTests {
  @Test(
    "A read that arrives while its scope starts the cell again waits for it instead of stopping"
  )
  func readWhileTheScopeRestartsTheCell() {
    let site = OverrideSite(.scope, depth: 1, fileID: #fileID, line: #line)
    for round in 1...200 {
      let cell = LazyCell<Int>.make(
        key: CellLabelKey.self,
        site: site,
        make: { round },
        teardown: .none
      )
      #expect(cell.claimAndOpen(scope: nil))
      let shared = UncheckedSendable(cell)
      let result = Locked<Int?>(nil)
      let done = DispatchSemaphore(value: 0)
      DispatchQueue.global().async {
        let value = shared.value.value()
        result.withLock { $0 = value }
        done.signal()
      }
      // Start the cell again and again while the reader arrives: it sees `starting` at times.
      var restarts = 0
      while result.withLock({ $0 }) == nil && restarts < 100_000 {
        cell.reopen(scope: nil)
        restarts += 1
      }
      done.wait()
      #expect(result.withLock { $0 } == round)
      #expect(cell.close(), "the value was built, so closing reports it")
      #expect(!cell.close(), "a second close reports nothing to tear down")
    }
  }
}
