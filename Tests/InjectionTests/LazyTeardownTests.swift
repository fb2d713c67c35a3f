import Dispatch
import Testing

@testable import Injection

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// What a teardown of a value built on first use can read: the scope's values, its own and the
// other values of the scope included, while the scope tears them down latest-built first.

/// A resource that records its teardown in a shared log.
private final class Resource: Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}

private struct SessionKey: InjectionKey {
  static let currentValue = Resource("live session")
}

private struct PoolKey: InjectionKey {
  static let currentValue = Resource("live pool")
}

private struct AuditKey: InjectionKey {
  static let currentValue = Resource("live audit")
}

extension InjectedValues {
  fileprivate var session: Resource {
    get { self[SessionKey.self] }
    set { self[SessionKey.self] = newValue }
  }

  fileprivate var pool: Resource {
    get { self[PoolKey.self] }
    set { self[PoolKey.self] = newValue }
  }

  fileprivate var audit: Resource {
    get { self[AuditKey.self] }
    set { self[AuditKey.self] = newValue }
  }
}

/// The synchronous scope, called from an asynchronous test.
private func withInjectedValuesSynchronously(
  _ update: (inout InjectedValues) -> Void,
  _ operation: () -> Void
) {
  withInjectedValues(update, operation: operation)
}

/// Runs a scope with `update`, synchronous or not, whose operation runs `first`, then starts
/// building `\.session` on a global queue and returns once `started` says the build has begun:
/// the scope ends while the build is in flight. Waits for the queue's work after the scope.
private func endWhileBuildingSession(
  asynchronously: Bool,
  update: (inout InjectedValues) -> Void,
  started: DispatchSemaphore,
  first: @escaping @Sendable () -> Void = {}
) async {
  let warming = DispatchGroup()
  let operation: @Sendable () -> Void = {
    first()
    let warm = InjectedValues.current.bind { _ = InjectedValues[\.session] }
    DispatchQueue.global().async(group: warming) { warm() }
    waitOnThisThread(started)
  }
  if asynchronously {
    await withInjectedValues(update) { () async in operation() }
  } else {
    withInjectedValuesSynchronously(update, operation)
  }
  waitOnThisThread(warming)
}

/// A key of its own for each type `Tag`: how a test makes thousands of keys.
private struct NumberedKey<Tag>: InjectionKey {
  static var currentValue: Int { 0 }
}
private enum Zero<Rest> {}
private enum One<Rest> {}

/// Declares `1 << bits` values built on first use, each under a key of its own whose value is
/// its number, in the order of their numbers, and returns a read of each, by number.
private func declareNumbered<Tag>(
  _: Tag.Type,
  bits: Int,
  number: Int = 0,
  into values: inout InjectedValues,
  teardown: @escaping @Sendable (Int) -> Void
) -> [@Sendable () -> Int] {
  guard bits > 0 else {
    values.writeLazy(NumberedKey<Tag>.self, { number }, teardown: .sync(teardown))
    return [{ InjectedValues[NumberedKey<Tag>.self] }]
  }
  let zeros = declareNumbered(
    Zero<Tag>.self,
    bits: bits - 1,
    number: number * 2,
    into: &values,
    teardown: teardown
  )
  let ones = declareNumbered(
    One<Tag>.self,
    bits: bits - 1,
    number: number * 2 + 1,
    into: &values,
    teardown: teardown
  )
  return zeros + ones
}

@Suite("What teardowns of values built once per scope read")
struct LazyTeardownTests {
  @Test("A teardown reads the value it tears down, in a synchronous scope")
  func teardownReadsItsOwnValue() {
    let seen = Locked<[Bool]>([])
    withInjectedValues {
      $0.lazy(\.session) {
        Resource("scoped")
      } teardown: { session in
        seen.withLock { $0.append(InjectedValues[\.session] === session) }
      }
    } operation: {
      #expect(InjectedValues[\.session].name == "scoped")
    }
    #expect(seen.withLock { $0 } == [true])
  }

  @Test("A teardown reads the value it tears down, in an asynchronous scope")
  func teardownReadsItsOwnValueAsynchronously() async {
    let seen = Locked<[String]>([])
    await withInjectedValues {
      $0.lazy(\.session) {
        Resource("scoped")
      } teardown: { _ in
        await Task.yield()
        seen.withLock { $0.append(InjectedValues[\.session].name) }
      }
    } operation: {
      #expect(InjectedValues[\.session].name == "scoped")
    }
    #expect(seen.withLock { $0 } == ["scoped"])
  }

  // The session is declared first and its factory reads the pool: the pool's build ends first,
  // so the session is torn down first, while the pool is not yet. (Torn down in the order of the
  // declarations, the pool's teardown would have run before the session's.)
  @Test("Teardowns run latest-built first, and each reads the scope's other values")
  func teardownsRunLatestBuiltFirst() {
    let log = Locked<[String]>([])
    withInjectedValues {
      $0.lazy(\.session) {
        Resource("session over " + InjectedValues[\.pool].name)
      } teardown: { session in
        let pool = InjectedValues[\.pool].name  // read outside the lock: a read may build
        log.withLock { $0.append("\(session.name) torn down, pool \(pool)") }
      }
      $0.lazy(\.pool) {
        Resource("scoped pool")
      } teardown: { pool in
        let session = InjectedValues[\.session].name
        log.withLock { $0.append("\(pool.name) torn down, session \(session)") }
      }
    } operation: {
      #expect(InjectedValues[\.session].name == "session over scoped pool")
    }
    #expect(
      log.withLock { $0 } == [
        "session over scoped pool torn down, pool scoped pool",
        "scoped pool torn down, session session over scoped pool",
      ]
    )
  }

  @Test("The same in an asynchronous scope with asynchronous teardowns")
  func teardownsRunLatestBuiltFirstAsynchronously() async {
    let log = Locked<[String]>([])
    await withInjectedValues {
      $0.lazy(\.session) {
        Resource("session over " + InjectedValues[\.pool].name)
      } teardown: { session in
        await Task.yield()
        let pool = InjectedValues[\.pool].name  // read outside the lock: a read may build
        log.withLock { $0.append("\(session.name) torn down, pool \(pool)") }
      }
      $0.lazy(\.pool) {
        Resource("scoped pool")
      } teardown: { pool in
        await Task.yield()
        let session = InjectedValues[\.session].name
        log.withLock { $0.append("\(pool.name) torn down, session \(session)") }
      }
    } operation: {
      #expect(InjectedValues[\.session].name == "session over scoped pool")
    }
    #expect(
      log.withLock { $0 } == [
        "session over scoped pool torn down, pool scoped pool",
        "scoped pool torn down, session session over scoped pool",
      ]
    )
  }

  @Test("A teardown that reads a value the scope had not built builds it, then it is torn down too")
  func teardownBuildsAValueNotBuiltYet() {
    let log = Locked<[String]>([])
    withInjectedValues {
      $0.lazy(\.session) {
        Resource("scoped session")
      } teardown: { session in
        let audit = InjectedValues[\.audit].name  // builds it, outside the lock
        log.withLock { $0.append("\(session.name) torn down, audit \(audit)") }
      }
      $0.lazy(\.audit) {
        log.withLock { $0.append("audit built") }
        return Resource("scoped audit")
      } teardown: { audit in
        log.withLock { $0.append("\(audit.name) torn down") }
      }
    } operation: {
      #expect(InjectedValues[\.session].name == "scoped session")
    }
    #expect(
      log.withLock { $0 } == [
        "audit built",
        "scoped session torn down, audit scoped audit",
        "scoped audit torn down",
      ]
    )
  }

  // MARK: - A build in flight on another thread when the scope ends

  // The cache is declared first and its factory reads the database; a thread the operation
  // started is still building the cache when the operation returns. The scope waits for that
  // build, then tears the cache down before the database, and both teardowns read the database.
  @Test(
    "A build still in flight on another thread when the scope ends is waited for, then torn down in its turn",
    arguments: [false, true]
  )
  func buildInFlightWhenTheScopeEnds(asynchronously: Bool) async {
    let log = Locked<[String]>([])
    let started = DispatchSemaphore(value: 0)
    let update: (inout InjectedValues) -> Void = {
      $0.lazy(\.session) {
        let pool = InjectedValues[\.pool]
        started.signal()
        usleep(100_000)  // still building when the operation returns
        log.withLock { $0.append("session built") }
        return Resource("session over \(pool.name)")
      } teardown: { session in
        log.withLock { $0.append("\(session.name) torn down, pool \(InjectedValues[\.pool].name)") }
      }
      $0.lazy(\.pool) {
        Resource("scoped pool")
      } teardown: { pool in
        log.withLock { $0.append("\(pool.name) torn down, pool \(InjectedValues[\.pool].name)") }
      }
    }
    await endWhileBuildingSession(asynchronously: asynchronously, update: update, started: started)
    {
      _ = InjectedValues[\.pool]
    }
    #expect(
      log.withLock { $0 } == [
        "session built",
        "session over scoped pool torn down, pool scoped pool",
        "scoped pool torn down, pool scoped pool",
      ]
    )
  }

  @Test(
    "A single value still in flight on another thread when the scope ends is torn down after its build, reading itself",
    arguments: [false, true]
  )
  func singleBuildInFlightWhenTheScopeEnds(asynchronously: Bool) async {
    let log = Locked<[String]>([])
    let started = DispatchSemaphore(value: 0)
    let update: (inout InjectedValues) -> Void = {
      $0.lazy(\.session) {
        started.signal()
        usleep(100_000)
        return Resource("scoped")
      } teardown: { session in
        let same = InjectedValues[\.session] === session
        log.withLock { $0.append("torn down, reads itself: \(same)") }
      }
    }
    await endWhileBuildingSession(asynchronously: asynchronously, update: update, started: started)
    #expect(log.withLock { $0 } == ["torn down, reads itself: true"])
  }

  @Test("A scope closes its values in the order it opened them: the latest declared first")
  func closeOrder() {
    var values = InjectedValues(head: nil)
    let reads = declareNumbered(Void.self, bits: 2, into: &values) { _ in }
    let (_, scope) = values.openLazyValues(synchronously: true)
    var order: [Int] = []
    for cell in scope.cells {
      order.append((cell as! LazyCell<Int>).read())
    }
    scope.end()
    #expect(reads.count == 4)
    #expect(order == [3, 2, 1, 0])
  }

  @Test("A scope with thousands of values ends them on a thread with a small stack")
  func thousandsOfValuesOnASmallStack() {
    let log = Locked<[Int]>([])
    var values = InjectedValues(head: nil)
    let reads = declareNumbered(Void.self, bits: 13, into: &values) { number in
      log.withLock { $0.append(number) }
    }
    let declared = UncheckedSendable(values)
    let thread = startThread(stackBytes: 128 * 1024) {
      InjectedValues.withLazyValues(declared.value) {
        for number in [0, 4_096, 8_191] { _ = reads[number]() }
      }
    }
    joinOnThisThread([thread])
    #expect(reads.count == 8_192)
    #expect(log.withLock { $0 } == [8_191, 4_096, 0], "the built values, latest-built first")
  }

  #if os(macOS) || os(Linux)  // the platforms with exit tests (none on iOS, tvOS, watchOS)
    @Test("Once every teardown has run, the scope's values are closed: a snapshot's read stops")
    func valuesCloseAfterTheTeardowns() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let kept = Locked<InjectedValues?>(nil)
        withInjectedValues {
          $0.lazy(\.session) {
            Resource("scoped")
          } teardown: { _ in
            kept.withLock { $0 = InjectedValues.current }
          }
        } operation: {
          _ = InjectedValues[\.session]
        }
        let values = kept.withLock { $0 }!
        withInjectedValues(values) { _ = InjectedValues[\.session] }
      }
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(message.contains("was read after its scope ended"), "stderr: \(message)")
    }
  #endif
}
