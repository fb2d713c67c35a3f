import Testing

@testable import Injection

// Which scope owns a value built on first use when the declaration travels in a value: copied
// with `$0 = InjectedValues.current`, prepared outside any update closure and bound in several
// scopes; and what the teardown sees.

private struct BoundConnectionKey: InjectionKey {
  static let currentValue = Connection(name: "live")
}

private struct TeardownLabelKey: InjectionKey {
  static let currentValue = "live"
}

extension InjectedValues {
  fileprivate var boundConnection: Connection {
    get { self[BoundConnectionKey.self] }
    set { self[BoundConnectionKey.self] = newValue }
  }

  fileprivate var seedBoundConnection: Connection {
    get { Self[BoundConnectionKey.self] }
    set { Self[BoundConnectionKey.self] = newValue }
  }

  fileprivate var teardownLabel: String {
    get { self[TeardownLabelKey.self] }
    set { self[TeardownLabelKey.self] = newValue }
  }
}

/// A value outside any update closure with a connection declared on it, built on first use.
private func preparedDeclaration(log: ConnectionLog) -> InjectedValues {
  var prepared = InjectedValues.current
  prepared.lazy(\.boundConnection) {
    log.open("prepared")
  } teardown: {
    log.close($0)
  }
  return prepared
}

@Suite("A lazy declaration belongs to each scope that binds it")
struct LazyScopeBindingTests {
  // MARK: - `current` in an update closure is a copy of the values being built

  @Test(
    "$0 = InjectedValues.current after $0.lazy keeps the declaration, for both accessor styles",
    arguments: [\InjectedValues.boundConnection, \InjectedValues.seedBoundConnection]
  )
  func currentCopiesTheDeclaration(
    keyPath: any WritableKeyPath<InjectedValues, Connection> & Sendable
  ) {
    let log = ConnectionLog()
    let name = withInjectedValues {
      $0.lazy(keyPath) {
        log.open("scoped")
      } teardown: {
        log.close($0)
      }
      $0 = InjectedValues.current
    } operation: {
      InjectedValues[keyPath].name
    }
    #expect(name == "scoped")
    #expect(log.opened.count == 1)
    #expect(log.closed == 1)
  }

  @Test("The same holds in an asynchronous scope")
  func currentCopiesTheDeclarationAsynchronously() async {
    let log = ConnectionLog()
    let name = await withInjectedValues {
      $0.lazy(\.boundConnection) {
        log.open("scoped")
      } teardown: {
        log.close($0)
      }
      $0 = InjectedValues.current
    } operation: {
      await Task { InjectedValues[\.boundConnection].name }.value
    }
    #expect(name == "scoped")
    #expect(log.opened.count == 1)
    #expect(log.closed == 1)
  }

  // MARK: - A declaration prepared outside any update closure

  @Test("A value with a lazy declaration, bound in two scopes one after the other, builds twice")
  func preparedDeclarationInSequentialScopes() {
    let log = ConnectionLog()
    let prepared = preparedDeclaration(log: log)
    for round in 1...2 {
      let name = withInjectedValues {
        $0 = prepared
      } operation: {
        InjectedValues[\.boundConnection].name
      }
      #expect(name == "prepared")
      #expect(log.opened.count == round)
      #expect(log.closed == round)
    }
    #expect(log.opened[0] !== log.opened[1])
  }

  @Test("Bound in concurrent scopes, each scope gets its own value and tears down its own")
  func preparedDeclarationInConcurrentScopes() async {
    let log = ConnectionLog()
    let prepared = preparedDeclaration(log: log)
    let identities = await withTaskGroup(of: ObjectIdentifier.self) { group in
      for _ in 0..<20 {
        group.addTask {
          await withInjectedValues {
            $0 = prepared
          } operation: {
            await Task.yield()
            return ObjectIdentifier(InjectedValues[\.boundConnection])
          }
        }
      }
      var identities: Set<ObjectIdentifier> = []
      for await identity in group { identities.insert(identity) }
      return identities
    }
    #expect(identities.count == 20)
    #expect(log.opened.count == 20)
    #expect(log.closed == 20)
  }

  @Test("An inner scope still shares the enclosing scope's value")
  func innerScopesShare() {
    let log = ConnectionLog()
    let prepared = preparedDeclaration(log: log)
    withInjectedValues {
      $0 = prepared
    } operation: {
      let outer = InjectedValues[\.boundConnection]
      let inner = withInjectedValues {
        $0.teardownLabel = "inner"
      } operation: {
        InjectedValues[\.boundConnection]
      }
      #expect(outer === inner)
    }
    #expect(log.opened.count == 1)
    #expect(log.closed == 1)
  }

  @Test(
    "An inner scope that binds the enclosing scope's snapshot shares its value and leaves it open"
  )
  func innerScopeBindingTheEnclosingSnapshotShares() {
    let log = ConnectionLog()
    let base = InjectedValues.current
    withInjectedValues {
      $0 = base
      $0.lazy(\.boundConnection) {
        log.open("outer")
      } teardown: {
        log.close($0)
      }
    } operation: {
      let enclosing = InjectedValues.current
      let inner = withInjectedValues {
        $0 = enclosing
        $0.lazy(\.teardownLabel) { "inner" }
      } operation: {
        InjectedValues[\.boundConnection]
      }
      #expect(
        inner === InjectedValues[\.boundConnection],
        "the enclosing scope's value, still open"
      )
    }
    #expect(log.opened.count == 1)
    #expect(log.closed == 1)
  }

  // MARK: - The teardown runs inside the scope

  @Test("A synchronous teardown sees the scope's overrides")
  func synchronousTeardownSeesTheScope() {
    let seen = Locked<String?>(nil)
    withInjectedValues {
      $0.teardownLabel = "scoped"
      $0.lazy(\.boundConnection) {
        Connection(name: "x")
      } teardown: { _ in
        seen.withLock { $0 = InjectedValues[\.teardownLabel] }
      }
    } operation: {
      _ = InjectedValues[\.boundConnection]
    }
    #expect(seen.withLock { $0 } == "scoped")
  }

  @Test("An asynchronous teardown sees the scope's overrides, when the operation throws too")
  func asynchronousTeardownSeesTheScope() async {
    struct Failure: Error {}
    let seen = Locked<[String]>([])
    for throwing in [false, true] {
      _ = try? await withInjectedValues {
        $0.teardownLabel = "scoped"
        $0.lazy(\.boundConnection) {
          Connection(name: "x")
        } teardown: { _ in
          await Task.yield()
          seen.withLock { $0.append(InjectedValues[\.teardownLabel]) }
        }
      } operation: {
        _ = InjectedValues[\.boundConnection]
        if throwing { throw Failure() }
      }
    }
    #expect(seen.withLock { $0 } == ["scoped", "scoped"])
  }
}
