import Dispatch
import Testing

@testable import Injection

// The rule for code that an update closure waits for on its own thread, such as a block that
// `DispatchQueue.sync` runs there: it is part of the closure. Its reads see the values being
// built and its seed-style writes land in them, in both accessor styles, in synchronous and
// asynchronous update closures, as a raw task-local read on that thread would see the task's
// values. Code on another thread is not (see WithInjectedValuesTests for `async` blocks).

private struct BlockWriteKey: InjectionKey {
  static let currentValue = 0
}

extension InjectedValues {
  fileprivate var blockWrite: Int {
    get { Self[BlockWriteKey.self] }
    set { Self[BlockWriteKey.self] = newValue }
  }
}

@Suite("A block run synchronously on the update closure's thread is part of the closure")
struct SynchronousBlocksInUpdateClosuresTests {
  @Test(
    "DispatchQueue.sync in a synchronous update closure reads the values being built",
    arguments: AccessorStyle.allCases
  )
  func syncBlockReadsValuesBeingBuilt(style: AccessorStyle) {
    let seen = withInjectedValues {
      $0[keyPath: style.styled] = "enclosing"
    } operation: {
      withInjectedValues {
        $0[keyPath: style.styled] = "being built"
        let read = DispatchQueue.global().sync { InjectedValues[style.styled] }
        let wrapped = DispatchQueue(label: "serial").sync { StyledReader().styled(style) }
        let current = DispatchQueue.global().sync { InjectedValues.current[keyPath: style.styled] }
        #expect([read, wrapped, current] == ["being built", "being built", "being built"])
      } operation: {
        InjectedValues[style.styled]
      }
    }
    #expect(seen == "being built")
  }

  @Test("A seed-style write from DispatchQueue.sync lands in the closure's values, not globally")
  func syncBlockWritesLandInTheClosure() {
    let seen = withInjectedValues {
      _ = $0
      DispatchQueue(label: "serial").sync { InjectedValues[BlockWriteKey.self] = 77 }
    } operation: {
      (InjectedValues[\.blockWrite], InjectedValues.current.source(of: BlockWriteKey.self))
    }
    #expect(seen.0 == 77)
    #expect(seen.1 != .global)
    #expect(InjectedValues[\.blockWrite] == 0, "no global value was set")
  }

  @Test(
    "The same rule holds in an asynchronous update closure, across a suspension",
    arguments: AccessorStyle.allCases
  )
  func asynchronousUpdateClosure(style: AccessorStyle) async throws {
    let values = try await InjectedValues._updatingAsynchronously(fileID: #fileID, line: #line) {
      $0[keyPath: style.styled] = "being built"
      await Task.yield()
      let read = DispatchQueue.global().sync { InjectedValues[style.styled] }
      #expect(read == "being built")
      DispatchQueue.global().sync { InjectedValues[BlockWriteKey.self] = 5 }
    }
    #expect(values[StyledKey.self] == "being built")
    #expect(values[BlockWriteKey.self] == 5)
    #expect(InjectedValues[\.blockWrite] == 0, "no global value was set")
  }
}
