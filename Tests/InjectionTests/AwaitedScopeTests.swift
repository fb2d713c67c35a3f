import Testing

@testable import Injection

// An awaited `withInjectedValues` is the asynchronous one, even when its operation does not
// suspend: a value built on first use with an asynchronous teardown is then torn down before the
// call returns, instead of stopping the program (see "Which scope function runs" in
// Docs/Lifetimes.md).

private struct AwaitedConnectionKey: InjectionKey {
  static let currentValue = Connection(name: "live")
}

extension InjectedValues {
  fileprivate var awaitedConnection: Connection {
    get { self[AwaitedConnectionKey.self] }
    set { self[AwaitedConnectionKey.self] = newValue }
  }
}

private struct AwaitedFailure: Error {}

/// Closes asynchronously, as a real connection would.
private func closeAsynchronously(_ connection: Connection, in log: ConnectionLog) async {
  await Task.yield()
  log.close(connection)
}

/// Declares a connection built on first use, with an asynchronous teardown, as the tests' scopes do.
private func declareConnection(
  in values: inout InjectedValues,
  log: ConnectionLog,
  name: String = "scoped"
) {
  values.lazy(\.awaitedConnection) {
    log.open(name)
  } teardown: {
    await closeAsynchronously($0, in: log)
  }
}

@Suite("An awaited scope is the asynchronous one, whatever its operation does")
struct AwaitedScopeTests {
  @Test("An operation that reads the value and returns without suspending: torn down after it")
  func nonSuspendingOperationReturns() async {
    let log = ConnectionLog()
    let closedDuringOperation = await withInjectedValues {
      declareConnection(in: &$0, log: log)
    } operation: {
      _ = InjectedValues[\.awaitedConnection]
      return log.closed
    }
    #expect(closedDuringOperation == 0)
    #expect(log.opened.count == 1)
    #expect(log.closed == 1)
  }

  @Test("An operation that only returns a constant: nothing built, nothing torn down")
  func operationThatOnlyReturns() async {
    let log = ConnectionLog()
    let result = await withInjectedValues {
      declareConnection(in: &$0, log: log)
    } operation: {
      42
    }
    #expect(result == 42)
    #expect(log.opened.isEmpty)
    #expect(log.closed == 0)
  }

  @Test("An operation that throws without suspending: torn down, and the error propagates")
  func nonSuspendingOperationThrows() async {
    let log = ConnectionLog()
    await #expect(throws: AwaitedFailure.self) {
      try await withInjectedValues {
        declareConnection(in: &$0, log: log)
      } operation: {
        _ = InjectedValues[\.awaitedConnection]
        throw AwaitedFailure()
      }
    }
    #expect(log.opened.count == 1)
    #expect(log.closed == 1)
  }

  @Test("Each case of a parameterized test tears down its own value", arguments: 0..<4)
  func parameterized(index: Int) async {
    let log = ConnectionLog()
    let name = await withInjectedValues {
      declareConnection(in: &$0, log: log, name: "case \(index)")
    } operation: {
      InjectedValues[\.awaitedConnection].name
    }
    #expect(name == "case \(index)")
    #expect(log.closed == 1)
  }

  @Test("A synchronous teardown in an awaited, non-suspending scope runs before the call returns")
  func synchronousTeardown() async {
    let log = ConnectionLog()
    await withInjectedValues {
      $0.lazy(\.awaitedConnection) {
        log.open("scoped")
      } teardown: {
        log.close($0)
      }
    } operation: {
      _ = InjectedValues[\.awaitedConnection]
    }
    #expect(log.closed == 1)
  }

  @Test("In a synchronous function the synchronous scope still runs, with a synchronous teardown")
  func synchronousContext() {
    let log = ConnectionLog()
    let name = withInjectedValues {
      $0.lazy(\.awaitedConnection) {
        log.open("sync")
      } teardown: {
        log.close($0)
      }
    } operation: {
      InjectedValues[\.awaitedConnection].name
    }
    #expect(name == "sync")
    #expect(log.closed == 1)
  }
}
