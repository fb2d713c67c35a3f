import Dispatch
import Testing

@testable import Injection

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// MARK: - A resource with a lifetime

/// Stands in for a database connection: counts how often it is opened and closed.
final class Connection: Sendable {
  let name: String
  private let closedCount = Locked(0)

  init(name: String) { self.name = name }

  func close() { closedCount.withLock { $0 += 1 } }
  var closes: Int { closedCount.withLock { $0 } }
}

/// Counts the connections a factory opens and the teardowns that close them.
final class ConnectionLog: Sendable {
  private let state = Locked<(opened: [Connection], closed: Int)>(([], 0))

  func open(_ name: String) -> Connection {
    let connection = Connection(name: name)
    state.withLock { $0.opened.append(connection) }
    return connection
  }

  func close(_ connection: Connection) {
    connection.close()
    state.withLock { $0.closed += 1 }
  }

  var opened: [Connection] { state.withLock { $0.opened } }
  var closed: Int { state.withLock { $0.closed } }
}

private struct ConnectionKey: InjectionKey {
  static let currentValue = Connection(name: "live")
}

private struct DatabaseURLKey: InjectionKey {
  static let currentValue = "postgres://live"
}

/// Values built on first use whose factories read each other: two, or three in a ring.
private struct LazyCycleAKey: InjectionKey {
  static let currentValue = "a"
}

private struct LazyCycleBKey: InjectionKey {
  static let currentValue = "b"
}

private struct LazyCycleCKey: InjectionKey {
  static let currentValue = "c"
}

/// Two defaults that read each other: a cycle among defaults, entered from a factory.
private struct MixAKey: InjectionKey {
  static var currentValue: String { "a(" + InjectedValues[MixDKey.self] + ")" }
}

private struct MixDKey: InjectionKey {
  static var currentValue: String { "d(" + InjectedValues[\.mixA] + ")" }
}

/// A default that reads a key overridden by a value built on first use.
private struct ReadsConnectionKey: InjectionKey {
  static var currentValue: String { InjectedValues[\.connection].name }
}

extension InjectedValues {
  fileprivate var connection: Connection {
    get { self[ConnectionKey.self] }
    set { self[ConnectionKey.self] = newValue }
  }

  fileprivate var seedConnection: Connection {
    get { Self[ConnectionKey.self] }
    set { Self[ConnectionKey.self] = newValue }
  }

  fileprivate var databaseURL: String {
    get { self[DatabaseURLKey.self] }
    set { self[DatabaseURLKey.self] = newValue }
  }

  fileprivate var mixA: String {
    get { self[MixAKey.self] }
    set { self[MixAKey.self] = newValue }
  }

  /// A setter that declares a value built once per scope: a misuse when it sets a global value.
  fileprivate var lazyConnectionName: String {
    get { self[ConnectionKey.self].name }
    set {
      let name = newValue
      lazy(\.connection) { Connection(name: name) }
    }
  }

  fileprivate var lazyCycleA: String {
    get { self[LazyCycleAKey.self] }
    set { self[LazyCycleAKey.self] = newValue }
  }

  fileprivate var lazyCycleB: String {
    get { self[LazyCycleBKey.self] }
    set { self[LazyCycleBKey.self] = newValue }
  }

  fileprivate var lazyCycleC: String {
    get { self[LazyCycleCKey.self] }
    set { self[LazyCycleCKey.self] = newValue }
  }
}

private struct Repository {
  @Injected(\.connection) var connection
}

private struct OperationFailed: Error {}

@Suite("Values built once per scope (lazy)")
struct LazyTests {
  // MARK: - L1: built at most once per scope, on first use

  @Test("Not built if nothing reads it")
  func notBuiltIfUnread() async {
    let log = ConnectionLog()
    await withInjectedValues {
      $0.lazy(\.connection) {
        log.open("unused")
      } teardown: {
        log.close($0)
      }
    } operation: {
      _ = InjectedValues[\.databaseURL]
      await Task.yield()
    }
    #expect(log.opened.isEmpty)
    #expect(log.closed == 0)
  }

  @Test("Built once, on the first read, even when 100 child tasks read it at the same moment")
  func builtOnceUnderContention() async {
    let log = ConnectionLog()
    let seen = await withInjectedValues {
      $0.lazy(\.connection) {
        sleepBriefly()  // widen the window in which other readers arrive
        return log.open("shared")
      } teardown: {
        log.close($0)
      }
    } operation: {
      #expect(log.opened.isEmpty, "not built before the first read")
      return await withTaskGroup(of: ObjectIdentifier.self) { group in
        for index in 0..<100 {
          group.addTask {
            index.isMultiple(of: 2)
              ? ObjectIdentifier(InjectedValues[\.connection])
              : ObjectIdentifier(Repository().connection)
          }
        }
        return await group.reduce(into: Set()) { $0.insert($1) }
      }
    }
    #expect(seen.count == 1)
    #expect(log.opened.count == 1)
    #expect(log.closed == 1)
  }

  @Test("Scope after scope, threads that read at once share one value, built and torn down once")
  func builtOnceOnThreadsScopeAfterScope() {
    let log = ConnectionLog()
    for scope in 0..<200 {
      let names = withInjectedValues {
        $0.lazy(\.connection) {
          log.open("scope \(scope)")
        } teardown: {
          log.close($0)
        }
      } operation: {
        // Threads outside the task read through a snapshot; the first reads race to build.
        let snapshot = InjectedValues.current
        let seen = Locked<Set<ObjectIdentifier>>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
          let connection = snapshot.connection
          seen.withLock { _ = $0.insert(ObjectIdentifier(connection)) }
        }
        return seen.withLock { $0 }.count
      }
      #expect(names == 1, "scope \(scope): every thread reads the same value")
    }
    #expect(log.opened.count == 200)
    #expect(log.closed == 200)
    #expect(log.opened.allSatisfy { $0.closes == 1 })
  }

  @Test("A scope that ends while another thread builds the value waits for it, then tears it down")
  func endingWaitsForABuildInProgress() {
    let log = ConnectionLog()
    let building = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    let readerSaw = Locked<String?>(nil)
    withInjectedValues {
      $0.lazy(\.connection) {
        building.signal()
        sleepBriefly(milliseconds: 50)  // the scope ends meanwhile
        return log.open("slow")
      } teardown: {
        log.close($0)
      }
    } operation: {
      let snapshot = InjectedValues.current
      DispatchQueue.global().async {
        let name = snapshot.connection.name
        readerSaw.withLock { $0 = name }
        done.signal()
      }
      building.wait()  // return while the factory runs on the other thread
    }
    // The scope function returned only after the build ended and the teardown ran.
    #expect(log.opened.map(\.name) == ["slow"])
    #expect(log.closed == 1)
    done.wait()
    #expect(readerSaw.withLock { $0 } == "slow")
  }

  @Test("Readers waiting for a build get the value, also when the scope ends as the build does")
  func waitingReadersGetTheValueAsTheScopeEnds() {
    for round in 0..<5 {
      let arrived = DispatchSemaphore(value: 0)
      let building = DispatchSemaphore(value: 0)
      let readers = DispatchGroup()
      let names = Locked<[String]>([])
      withInjectedValues {
        $0.lazy(\.connection) {
          building.signal()
          for _ in 0..<3 { arrived.wait() }
          sleepBriefly(milliseconds: 100)  // the other two readers wait for the build by now
          return Connection(name: "round \(round)")
        }
      } operation: {
        let snapshot = InjectedValues.current
        for _ in 0..<3 {
          DispatchQueue.global().async(group: readers) {
            arrived.signal()
            let name = snapshot.connection.name
            names.withLock { $0.append(name) }
          }
        }
        building.wait()  // the scope ends while the build runs, and closes as soon as it ends
      }
      readers.wait()
      #expect(names.withLock { $0 } == Array(repeating: "round \(round)", count: 3))
    }
  }

  @Test("Seed-style accessors declare and read it too")
  func seedStyleAccessors() {
    let log = ConnectionLog()
    withInjectedValues {
      $0.lazy(\.seedConnection) {
        log.open("seed")
      } teardown: {
        log.close($0)
      }
    } operation: {
      #expect(InjectedValues[\.seedConnection].name == "seed")
      #expect(InjectedValues[\.connection] === InjectedValues[\.seedConnection])
    }
    #expect(log.opened.count == 1)
    #expect(log.closed == 1)
  }

  // MARK: - L2: every scope builds its own

  @Test("Sequential and concurrent scopes each build their own value")
  func everyScopeBuildsItsOwn() async {
    let log = ConnectionLog()
    @Sendable func scope(_ name: String) async -> Connection {
      await withInjectedValues {
        $0.lazy(\.connection) {
          log.open(name)
        } teardown: {
          log.close($0)
        }
      } operation: {
        await Task.yield()
        return InjectedValues[\.connection]
      }
    }
    let first = await scope("first")
    let second = await scope("second")
    #expect(first !== second)
    let concurrent = await withTaskGroup(of: String.self) { group in
      for index in 0..<20 { group.addTask { await scope("scope \(index)").name } }
      return await group.reduce(into: [String]()) { $0.append($1) }
    }
    #expect(Set(concurrent).count == 20)
    #expect(log.opened.count == 22)
    #expect(log.closed == 22)
  }

  // MARK: - L3: nesting and snapshots

  @Test("Inner scopes and snapshots share the value unless they override or redeclare it")
  func nestedScopesShare() {
    let log = ConnectionLog()
    withInjectedValues {
      $0.lazy(\.connection) {
        log.open("outer")
      } teardown: {
        log.close($0)
      }
    } operation: {
      let outer = InjectedValues[\.connection]
      withInjectedValues {
        $0.databaseURL = "postgres://other"
      } operation: {
        #expect(InjectedValues[\.connection] === outer, "an inner scope sees the outer value")
      }
      let snapshot = InjectedValues.current
      withInjectedValues(snapshot) {
        #expect(InjectedValues[\.connection] === outer, "a snapshot shares the value")
      }
      withInjectedValues {
        $0.lazy(\.connection) {
          log.open("inner")
        } teardown: {
          log.close($0)
        }
      } operation: {
        #expect(InjectedValues[\.connection].name == "inner", "a redeclaration builds its own")
      }
      #expect(log.closed == 1, "the inner scope tore its own value down when it ended")
      withInjectedValues {
        $0.connection = Connection(name: "plain override")
      } operation: {
        #expect(InjectedValues[\.connection].name == "plain override")
      }
      #expect(InjectedValues[\.connection] === outer)
    }
    #expect(log.opened.map(\.name) == ["outer", "inner"])
    #expect(log.closed == 2)
  }

  // MARK: - L4: teardown

  @Test("The teardown runs once, after the operation returns and before the scope function does")
  func teardownAfterOperation() async {
    let log = ConnectionLog()
    let closedInOperation = await withInjectedValues {
      $0.lazy(\.connection) {
        log.open("request")
      } teardown: { connection in
        await Task.yield()
        log.close(connection)
      }
    } operation: { () async in
      let connection = InjectedValues[\.connection]
      _ = InjectedValues[\.connection]
      return connection.closes
    }
    #expect(closedInOperation == 0)
    #expect(log.opened.count == 1)
    #expect(log.opened.first?.closes == 1)
    #expect(log.closed == 1)
  }

  @Test("The teardown runs when the operation throws, and the error propagates")
  func teardownOnError() async {
    let log = ConnectionLog()
    await #expect(throws: OperationFailed.self) {
      try await withInjectedValues {
        $0.lazy(\.connection) {
          log.open("failing")
        } teardown: {
          await Task.yield()
          log.close($0)
        }
      } operation: { () async throws in
        _ = InjectedValues[\.connection]
        throw OperationFailed()
      }
    }
    #expect(log.closed == 1)
  }

  @Test("The teardown runs when the operation is cancelled")
  func teardownOnCancellation() async {
    let log = ConnectionLog()
    let task = Task {
      try await withInjectedValues {
        $0.lazy(\.connection) {
          log.open("cancelled")
        } teardown: {
          log.close($0)
        }
      } operation: {
        _ = InjectedValues[\.connection]
        try await Task.sleep(nanoseconds: 60_000_000_000)
      }
    }
    while log.opened.isEmpty { await Task.yield() }
    task.cancel()
    _ = await task.result
    #expect(log.closed == 1)
  }

  @Test("A synchronous scope runs a synchronous teardown before it returns")
  func synchronousScopeTeardown() {
    let log = ConnectionLog()
    let closes = withInjectedValues {
      $0.lazy(\.connection) {
        log.open("sync")
      } teardown: {
        log.close($0)
      }
    } operation: {
      InjectedValues[\.connection]
    }.closes
    #expect(closes == 1)
    #expect(log.closed == 1)
  }

  @Test("A synchronous scope whose operation throws runs the teardown, and the error propagates")
  func synchronousScopeTeardownOnError() {
    let log = ConnectionLog()
    #expect(throws: OperationFailed.self) {
      try withInjectedValues {
        $0.lazy(\.connection) {
          log.open("sync")
        } teardown: {
          log.close($0)
        }
      } operation: {
        _ = InjectedValues[\.connection]
        throw OperationFailed()
      }
    }
    #expect(log.opened.count == 1)
    #expect(log.closed == 1)
  }

  #if os(macOS) || os(Linux)  // the platforms with exit tests (none on iOS, tvOS, watchOS)
    @Test(
      "A synchronous scope stops the program before the operation if a teardown is asynchronous"
    )
    func synchronousScopeWithAsynchronousTeardownStops() async {
      let result = await #expect(
        processExitsWith: .failure,
        observing: [\.standardErrorContent, \.standardOutputContent]
      ) {
        let teardown: @Sendable (Connection) async -> Void = { _ in await Task.yield() }
        withInjectedValues {
          $0.lazy(\.connection, { Connection(name: "x") }, teardown: teardown)
        } operation: {
          print("the operation ran")
        }
      }
      let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
      #expect(!output.contains("the operation ran"))
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(message.contains("lazy(ConnectionKey)"))
      #expect(
        message.contains(
          "asynchronous teardown, which a synchronous withInjectedValues cannot wait for"
        )
      )
    }
  #endif

  // MARK: - L5: the factory sees the declaring scope's values

  @Test("The factory sees the update closure's overrides, not the reader's inner scopes")
  func factorySeesDeclaringScope() {
    withInjectedValues {
      $0.databaseURL = "postgres://test"
      $0.lazy(\.connection) { Connection(name: InjectedValues[\.databaseURL]) }
    } operation: {
      withInjectedValues {
        $0.databaseURL = "postgres://inner"
      } operation: {
        #expect(InjectedValues[\.connection].name == "postgres://test")
      }
    }
  }

  @Test("The factory sees overrides set after the lazy line in the same update closure too")
  func factorySeesLaterOverrides() {
    withInjectedValues {
      $0.lazy(\.connection) { Connection(name: InjectedValues[\.databaseURL]) }
      $0.databaseURL = "postgres://set after"
    } operation: {
      #expect(InjectedValues[\.connection].name == "postgres://set after")
    }
  }

  @Test("A factory that reads a default which reads the same key's default is no cycle")
  func factoryReadingItsKeysDefault() {
    withInjectedValues {
      $0.lazy(\.connection) {
        Connection(name: "scoped, beside " + InjectedValues[ReadsConnectionKey.self])
      }
    } operation: {
      #expect(InjectedValues[\.connection].name == "scoped, beside live")
    }
  }

  @Test("A default created while a value is built still sees no scope")
  func defaultsStayOutsideScopes() {
    withInjectedValues {
      $0.lazy(\.connection) { Connection(name: "scoped") }
    } operation: {
      #expect(InjectedValues[ReadsConnectionKey.self] == "live")
      #expect(InjectedValues[\.connection].name == "scoped")
    }
  }

  // MARK: - L6: after the scope ends

  #if os(macOS) || os(Linux)  // the platforms with exit tests (none on iOS, tvOS, watchOS)
    @Test("Reading the value through a snapshot after its scope ended stops the program")
    func readAfterScopeStops() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let snapshot = withInjectedValues {
          $0.lazy(\.connection) { Connection(name: "gone") }
        } operation: {
          _ = InjectedValues[\.connection]
          return InjectedValues.current
        }
        withInjectedValues(snapshot) { _ = InjectedValues[\.connection] }
      }
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(
        message.contains(
          "ConnectionKey, declared with lazy(_:_:) at InjectionTests/LazyTests.swift:"
        )
      )
      #expect(message.contains("was read after its scope ended"))
    }
  #endif

  @Test("A snapshot taken in the scope reads the value while the scope runs")
  func snapshotInScope() async {
    let log = ConnectionLog()
    await withInjectedValues {
      $0.lazy(\.connection) {
        log.open("request")
      } teardown: {
        log.close($0)
      }
    } operation: {
      let snapshot = InjectedValues.current
      let name = await Task.detached {
        withInjectedValues(snapshot) { InjectedValues[\.connection].name }
      }.value
      #expect(name == "request")
    }
    #expect(log.closed == 1)
  }

  // MARK: - L7: tooling

  @Test("source(of:) reports the declaring scope, with its file and line")
  func provenance() {
    let line = #line + 1
    withInjectedValues {
      $0.lazy(\.connection) { Connection(name: "p") }
    } operation: {
      #expect(
        InjectedValues.current.source(of: \.connection) == .scope(fileID: #fileID, line: line)
      )
      #expect(InjectedValues.current.description.contains("ConnectionKey = (lazy, not built yet)"))
      _ = InjectedValues[\.connection]
      #expect(!InjectedValues.current.description.contains("not built yet"))
    }
  }

  // A cycle on one thread stops with its chain in every build: the suite runs in release too.

  #if os(macOS) || os(Linux)  // the platforms with exit tests (none on iOS, tvOS, watchOS)
    @Test("A cycle among factories stops with the same message as a cycle among defaults")
    func factoryCycleStops() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        withInjectedValues {
          $0.lazy(\.lazyCycleA) { "a(" + InjectedValues[\.lazyCycleB] + ")" }
          $0.lazy(\.lazyCycleB) { "b(" + InjectedValues[\.lazyCycleA] + ")" }
        } operation: {
          _ = InjectedValues[\.lazyCycleA]
        }
      }
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(
        cycleChain(in: message) == "LazyCycleAKey → LazyCycleBKey → LazyCycleAKey",
        "stderr: \(message)"
      )
    }
  #endif

  #if os(macOS) || os(Linux)  // the platforms with exit tests (none on iOS, tvOS, watchOS)
    @Test("A cycle among defaults entered from a factory stops with the defaults' chain")
    func defaultCycleFromAFactoryStops() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        withInjectedValues {
          $0.lazy(\.lazyCycleA) { "lazy(" + InjectedValues[MixDKey.self] + ")" }
        } operation: {
          _ = InjectedValues[\.lazyCycleA]
        }
      }
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(cycleChain(in: message) == "MixDKey → MixAKey → MixDKey", "stderr: \(message)")
    }
  #endif

  #if os(macOS) || os(Linux)  // the platforms with exit tests (none on iOS, tvOS, watchOS)
    @Test("A cycle through three factories stops with all three keys")
    func threeFactoryCycleStops() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        withInjectedValues {
          $0.lazy(\.lazyCycleA) { "a(" + InjectedValues[\.lazyCycleB] + ")" }
          $0.lazy(\.lazyCycleB) { "b(" + InjectedValues[\.lazyCycleC] + ")" }
          $0.lazy(\.lazyCycleC) { "c(" + InjectedValues[\.lazyCycleA] + ")" }
        } operation: {
          _ = InjectedValues[\.lazyCycleB]
        }
      }
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(
        cycleChain(in: message) == "LazyCycleBKey → LazyCycleCKey → LazyCycleAKey → LazyCycleBKey",
        "stderr: \(message)"
      )
    }
  #endif

  #if os(macOS) || os(Linux)  // the platforms with exit tests (none on iOS, tvOS, watchOS)
    @Test("A factory that reads its own value stops, in every build, instead of waiting for itself")
    func factoryReadingItselfStops() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        withInjectedValues {
          $0.lazy(\.lazyCycleA) { "a(" + InjectedValues[\.lazyCycleA] + ")" }
        } operation: {
          _ = InjectedValues[\.lazyCycleA]
        }
      }
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(cycleChain(in: message) == "LazyCycleAKey → LazyCycleAKey", "stderr: \(message)")
    }
  #endif

  #if os(macOS) || os(Linux)  // the platforms with exit tests (none on iOS, tvOS, watchOS)
    @Test("A setter that declares it, called to set a global value, stops the program")
    func declaredBySetterOfGlobalValue() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        InjectedValues[\.lazyConnectionName] = "global"
      }
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(
        message.contains(
          "declares ConnectionKey with lazy(_:_:), but it was called to set a global value"
        )
      )
    }
  #endif

  #if os(macOS) || os(Linux)  // the platforms with exit tests (none on iOS, tvOS, watchOS)
    @Test("Declaring it outside an update closure and reading it stops the program")
    func declaredOutsideUpdateClosure() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        var values = InjectedValues.current
        values.lazy(\.connection) { Connection(name: "orphan") }
        withInjectedValues(values) { _ = InjectedValues[\.connection] }
      }
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(message.contains("before its scope started"))
    }
  #endif
}

/// Sleeps a millisecond.
private func sleepBriefly(milliseconds: Int = 1) {
  var request = timespec(tv_sec: 0, tv_nsec: milliseconds * 1_000_000)
  nanosleep(&request, nil)
}
