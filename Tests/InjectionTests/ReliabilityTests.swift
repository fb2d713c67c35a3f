import Dispatch
import Testing

@testable import Injection

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Every key here is private to this file: tests elsewhere never see its global values.

/// A value whose identity says which write it came from.
private final class Marker: Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}

private struct RacedKey: InjectionKey {
  static let currentValue = Marker("default")
}

private struct ScopeLabelKey: InjectionKey {
  static let currentValue = "unscoped"
}

private let onceCreations = AtomicCounter()

/// A default with a side effect: each creation is counted.
private final class CountedSingleton: Sendable {
  init() { onceCreations.increment() }
}

private struct OnceRacedKey: InjectionKey {
  static let currentValue = CountedSingleton()
}

/// Set globally for the first time while `OnceRacedKey` is first resolved.
private struct FirstGlobalKey: InjectionKey {
  static let currentValue = 0
}

/// An override heavy enough that leaking it shows in the heap.
private final class Ballast: Sendable {
  let bytes: [UInt8]
  init(byteCount: Int) { bytes = [UInt8](repeating: 1, count: byteCount) }
}

private struct BallastKey: InjectionKey {
  static let currentValue = Ballast(byteCount: 0)
}

private struct EscapeKey: InjectionKey {
  static let currentValue = "default"
}

extension InjectedValues {
  fileprivate var raced: Marker {
    get { self[RacedKey.self] }
    set { self[RacedKey.self] = newValue }
  }

  fileprivate var scopeLabel: String {
    get { self[ScopeLabelKey.self] }
    set { self[ScopeLabelKey.self] = newValue }
  }

  fileprivate var onceRaced: CountedSingleton {
    get { self[OnceRacedKey.self] }
    set { self[OnceRacedKey.self] = newValue }
  }

  fileprivate var firstGlobal: Int {
    get { self[FirstGlobalKey.self] }
    set { self[FirstGlobalKey.self] = newValue }
  }

  fileprivate var ballast: Ballast {
    get { self[BallastKey.self] }
    set { self[BallastKey.self] = newValue }
  }

  fileprivate var escapeName: String {
    get { self[EscapeKey.self] }
    set { self[EscapeKey.self] = newValue }
  }
}

/// Reads through the wrapper, as app code does.
private struct RacedReader: Sendable {
  @Injected(\.raced) var raced
  @Injected(\.onceRaced) var onceRaced
}

/// Reads the escaping-callback key through the wrapper.
private struct EscapeReader: Sendable {
  @Injected(\.escapeName) var name
}

@Suite("Reliability")
struct ReliabilityTests {
  // MARK: - Global writes racing scoped reads

  @Test("Global writes racing 10,000 scoped reads: each read sees the old or the new value")
  func globalWritesRacingScopedReads() async {
    defer { removeGlobal(RacedKey.self) }
    let (old, new) = (Marker("old"), Marker("new"))
    InjectedValues[\.raced] = old

    // The writer flips the global value on its own thread until the readers are done.
    let writer = GlobalFlipper(old: old, new: new)
    async let writes = writer.run()
    await writer.waitUntilStarted()

    let tasks = 100
    let readsPerTask = 100
    let tally = await withTaskGroup(of: RaceTally.self) { group in
      for task in 0..<tasks {
        group.addTask {
          // One task in ten also overrides the raced key: global writes must never reach it.
          let own = task.isMultiple(of: 10) ? Marker("scope-\(task)") : nil
          return await withInjectedValues {
            $0.scopeLabel = "task-\(task)"
            if let own { $0.raced = own }
          } operation: {
            var tally = RaceTally()
            let reader = RacedReader()
            for read in 0..<readsPerTask {
              let seen = read.isMultiple(of: 2) ? InjectedValues[\.raced] : reader.raced
              let label = InjectedValues[\.scopeLabel]
              if let own {
                if seen === own { tally.ownOverride += 1 } else { tally.foreign += 1 }
              } else if seen === old {
                tally.old += 1
              } else if seen === new {
                tally.new += 1
              } else {
                tally.foreign += 1
              }
              if label != "task-\(task)" { tally.wrongLabel += 1 }
              if read.isMultiple(of: 25) { await Task.yield() }
            }
            return tally
          }
        }
      }
      return await group.reduce(into: RaceTally()) { $0.merge($1) }
    }
    writer.stop()
    let (writeCount, last) = await writes

    print(
      """
      Reliability: \(tally.total) scoped reads against \(writeCount) global writes: \
      \(tally.old) saw the old value, \(tally.new) the new, \(tally.ownOverride) their own \
      override, \(tally.foreign) another value
      """
    )
    #expect(tally.total == tasks * readsPerTask)
    #expect(tally.foreign == 0)
    #expect(tally.wrongLabel == 0, "a scope's other override was never lost")
    #expect(tally.ownOverride == tasks / 10 * readsPerTask)
    #expect(writeCount > 0)
    #expect(InjectedValues[\.raced] === last, "the last global write is what remains")
  }

  // MARK: - A static let default under contention

  @Test(
    "A static let default first resolved by 100 threads at once, through scopes, the wrapper and a global write, is created once"
  )
  func staticLetDefaultOnOneHundredThreads() {
    let identities = IdentityLog()
    let threads = 100
    onThreadsAtOnce(threads + 1) { index in
      guard index < threads else {
        // Meanwhile, one more thread sets another key globally for the first time.
        InjectedValues[\.firstGlobal] = 1
        return
      }
      switch index % 4 {
      case 0:
        identities.record(InjectedValues[\.onceRaced])
      case 1:
        // In a scope that overrides another key: the read falls through to the default.
        withInjectedValues {
          $0.scopeLabel = "thread-\(index)"
        } operation: {
          identities.record(InjectedValues[\.onceRaced])
        }
      case 2:
        identities.record(RacedReader().onceRaced)
      default:
        identities.record(InjectedValues.current[OnceRacedKey.self])
      }
    }
    removeGlobal(FirstGlobalKey.self)

    #expect(onceCreations.value == 1)
    #expect(identities.count == threads)
    #expect(identities.distinct == 1)
  }

  // MARK: - Overrides do not leak

  @Test("After 10,000 scopes, every override object has been released")
  func overridesAreReleased() async {
    let outcome = await runScopes(10_000, ballastBytes: 64)
    print(
      """
      Reliability: 10000 scopes, \(outcome.survivors) override objects still alive, \
      \(outcome.misreads) uses that missed the override
      """
    )
    #expect(outcome.misreads == 0)
    #expect(outcome.survivors == 0)
  }

  @Test(
    "After 10,000 scopes, the heap in use returns to its baseline",
    .enabled(if: HeapGauge.isAccurate, "needs glibc's own allocator (not under a sanitizer)")
  )
  func memoryReturnsToBaseline() async throws {
    let ballastBytes = 64 * 1024
    let scopes = 10_000
    _ = await runScopes(1_000, ballastBytes: ballastBytes)  // warm up the runtime and the heap
    let baseline = try #require(HeapGauge.bytesInUse())
    let outcome = await runScopes(scopes, ballastBytes: ballastBytes)
    let after = try #require(HeapGauge.bytesInUse())

    // Were the overrides leaked, the heap would grow by about 625 MiB. The tolerance is wide,
    // because the tests running beside this one allocate too.
    let leakedIfAll = scopes * ballastBytes
    let tolerance = 128 * 1024 * 1024
    let growth = after - baseline
    print(
      """
      Reliability: heap in use \(baseline / 1024) KiB before \(scopes) scopes of \
      \(ballastBytes / 1024) KiB overrides, \(after / 1024) KiB after: growth \(growth / 1024) KiB \
      (tolerance \(tolerance / 1024) KiB; \(leakedIfAll / 1024) KiB if every override leaked)
      """
    )
    #expect(outcome.survivors == 0)
    #expect(growth < tolerance)
  }

  /// Runs `count` scopes, 16 at a time, each overriding `ballast` with a new object and using it
  /// in the ways that hold on to values: `async let`, `Task {}`, a snapshot, a bound closure
  /// and a nested scope. Returns how many of those objects are still alive afterwards, and how
  /// many uses did not see the override.
  private func runScopes(
    _ count: Int,
    ballastBytes: Int
  ) async -> (survivors: Int, misreads: Int) {
    let width = 16
    let results = await withTaskGroup(of: (WeakBallast, sawOverride: Bool).self) { group in
      var started = 0
      var results: [(WeakBallast, sawOverride: Bool)] = []
      while started < count || !group.isEmpty {
        if started < count, started - results.count < width {
          group.addTask { await Self.useScope(ballastBytes: ballastBytes) }
          started += 1
        } else if let result = await group.next() {
          results.append(result)
        }
      }
      return results
    }
    return (
      results.filter { $0.0.object != nil }.count,
      results.filter { !$0.sawOverride }.count
    )
  }

  private static func useScope(ballastBytes: Int) async -> (WeakBallast, sawOverride: Bool) {
    let ballast = Ballast(byteCount: ballastBytes)
    let reference = WeakBallast(object: ballast)
    let seen = await withInjectedValues {
      $0.ballast = ballast
    } operation: {
      async let fromChild = InjectedValues[\.ballast] === ballast
      let fromTask = await Task { InjectedValues[\.ballast] === ballast }.value
      let snapshot = InjectedValues.current
      let bound = snapshot.bind { InjectedValues[\.ballast] === ballast }
      let nested = withInjectedValues {
        $0.scopeLabel = "nested"
      } operation: {
        InjectedValues[\.ballast] === ballast
      }
      return await fromChild && fromTask && bound() && nested
    }
    return (reference, seen)
  }

  // MARK: - Escaping callbacks

  /// These tests set a global value for `EscapeKey`, so they run one at a time.
  @Suite("Escaping callbacks", .serialized)
  struct EscapingCallbacks {
    @Test("A DispatchQueue block sees the global value, not the override; bind carries the scope")
    func dispatchQueueBlock() async {
      InjectedValues[\.escapeName] = "global"
      defer { removeGlobal(EscapeKey.self) }
      let (plain, bound) = await withInjectedValues {
        $0.escapeName = "scoped"
      } operation: {
        let reader = EscapeReader()
        let boundRead = InjectedValues.current.bind { reader.name }
        return await withCheckedContinuation { continuation in
          DispatchQueue.global().async {
            continuation.resume(returning: (reader.name, boundRead()))
          }
        }
      }
      #expect(plain == "global")
      #expect(bound == "scoped")
    }

    @Test(
      "A stored completion handler resolves where it is called; bound, it keeps its creator's scope"
    )
    func storedCompletionHandler() async {
      let request = withInjectedValues {
        $0.escapeName = "creator"
      } operation: {
        let reader = EscapeReader()
        return PendingRequest(
          onDone: { status in "\(status) \(reader.name)" },
          onDoneBound: InjectedValues.current.bind { status in "\(status) \(reader.name)" }
        )
      }
      // Called after the creating scope has ended, outside any scope:
      #expect(request.finish(status: 200) == ["200 default", "200 creator"])
      // Called inside another scope: the snapshot replaces that scope's values, it does not
      // merge with them.
      withInjectedValues {
        $0.escapeName = "caller"
      } operation: {
        #expect(request.finish(status: 201) == ["201 caller", "201 creator"])
      }
      // Called from another thread later on:
      let fromQueue = await withCheckedContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(returning: request.finish(status: 202)) }
      }
      #expect(fromQueue == ["202 default", "202 creator"])
    }

    @Test(
      "Task.detached sees the global value; a snapshot re-entered in it, or a bound closure, sees the scope"
    )
    func detachedTask() async {
      InjectedValues[\.escapeName] = "global"
      defer { removeGlobal(EscapeKey.self) }
      let seen = await withInjectedValues {
        $0.escapeName = "scoped"
      } operation: {
        let reader = EscapeReader()
        let snapshot = InjectedValues.current
        let boundRead = snapshot.bind { reader.name }
        let plain = await Task.detached { reader.name }.value
        let reentered = await Task.detached {
          await withInjectedValues(snapshot) {
            await Task.yield()
            return reader.name
          }
        }.value
        let bound = await Task.detached { boundRead() }.value
        return [plain, reentered, bound]
      }
      #expect(seen == ["global", "scoped", "scoped"])
    }
  }
}

// MARK: - Helpers

/// What the racing readers saw.
private struct RaceTally: Sendable {
  var old = 0
  var new = 0
  var ownOverride = 0
  var foreign = 0
  var wrongLabel = 0

  var total: Int { old + new + ownOverride + foreign }

  mutating func merge(_ other: RaceTally) {
    old += other.old
    new += other.new
    ownOverride += other.ownOverride
    foreign += other.foreign
    wrongLabel += other.wrongLabel
  }
}

/// Flips the global value of `RacedKey` between two markers on a thread of its own.
private final class GlobalFlipper: @unchecked Sendable {
  // Safe: `writes` and `isStopped` are touched only under `lock`; the markers are immutable.
  private let lock = Lock()
  private var writes = 0
  private var isStopped = false
  private let old: Marker
  private let new: Marker

  /// The writer gives up after this many writes, so that a broken test cannot spin forever.
  static let maximumWrites = 5_000_000

  init(old: Marker, new: Marker) {
    self.old = old
    self.new = new
  }

  /// Writes until stopped; returns the number of writes and the last value written.
  func run() async -> (writes: Int, last: Marker) {
    await withCheckedContinuation { continuation in
      DispatchQueue(label: "GlobalFlipper").async {
        var last = self.old
        var count = 0
        while count < Self.maximumWrites, !self.lock.withLock({ self.isStopped }) {
          last = count.isMultiple(of: 2) ? self.new : self.old
          InjectedValues[\.raced] = last
          count += 1
          self.lock.withLock { self.writes = count }
        }
        continuation.resume(returning: (count, last))
      }
    }
  }

  /// Returns once the first write is done.
  /// Returns once the first write is done, or after about ten seconds in any case.
  func waitUntilStarted() async {
    var naps = 0
    while naps < 10_000, lock.withLock({ writes == 0 }) {
      try? await Task.sleep(nanoseconds: 1_000_000)
      naps += 1
    }
  }

  func stop() { lock.withLock { isStopped = true } }
}

/// The identities of the objects the threads resolved.
private final class IdentityLog: @unchecked Sendable {
  // Safe: `identities` is touched only under `lock`.
  private let lock = Lock()
  private var identities: [ObjectIdentifier] = []

  func record(_ object: AnyObject) { lock.withLock { identities.append(ObjectIdentifier(object)) } }
  var count: Int { lock.withLock { identities.count } }
  var distinct: Int { lock.withLock { Set(identities).count } }
}

/// A weak reference to an override, to see whether anything still holds it.
private struct WeakBallast: Sendable {
  weak var object: Ballast?
}

/// Stores completion handlers and calls them later, as callback-based APIs do.
private final class PendingRequest: Sendable {
  private let onDone: @Sendable (Int) -> String
  private let onDoneBound: @Sendable (Int) -> String

  init(
    onDone: @escaping @Sendable (Int) -> String,
    onDoneBound: @escaping @Sendable (Int) -> String
  ) {
    self.onDone = onDone
    self.onDoneBound = onDoneBound
  }

  func finish(status: Int) -> [String] { [onDone(status), onDoneBound(status)] }
}

/// Runs `body(index)` for each index on `count` new threads, released together once all have
/// started, and returns when all have finished.
private func onThreadsAtOnce(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
  let gate = StartGate()
  var threads: [ThreadHandle] = []
  for index in 0..<count {
    let work = ThreadWork {
      gate.arriveAndWait(expected: count)
      body(index)
    }
    threads.append(ThreadHandle.start(work))
  }
  for thread in threads { thread.join() }
}

/// Holds threads until all of them have arrived. (`pthread_barrier_t` is missing on Darwin.)
private final class StartGate: @unchecked Sendable {
  // Safe: `arrived` is touched only under `lock`.
  private let lock = Lock()
  private var arrived = 0

  func arriveAndWait(expected: Int) {
    lock.withLock { arrived += 1 }
    while lock.withLock({ arrived < expected }) { sched_yield() }
  }
}

/// The closure a new thread runs.
private final class ThreadWork: Sendable {
  let run: @Sendable () -> Void
  init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}

/// A POSIX thread that can be joined.
private struct ThreadHandle {
  let thread: pthread_t

  static func start(_ work: ThreadWork) -> ThreadHandle {
    let argument = Unmanaged.passRetained(work).toOpaque()
    #if canImport(Glibc)
      var thread = pthread_t()
    #elseif canImport(Darwin)
      var thread: pthread_t?
    #endif
    let status = pthread_create(
      &thread,
      nil,
      { argument in
        // Optional on Linux, not on Apple platforms: this line accepts either.
        let argument: UnsafeMutableRawPointer? = argument
        Unmanaged<ThreadWork>.fromOpaque(argument!).takeRetainedValue().run()
        return nil
      },
      argument
    )
    precondition(status == 0, "pthread_create failed: \(status)")
    #if canImport(Glibc)
      return ThreadHandle(thread: thread)
    #elseif canImport(Darwin)
      return ThreadHandle(thread: thread!)
    #endif
  }

  func join() { pthread_join(thread, nil) }
}

/// Measures the bytes the C heap has handed out and not taken back.
///
/// glibc's `mallinfo2` would give this directly, but `malloc.h` is not part of the Glibc module,
/// so the figure comes from `malloc_info`, looked up at run time, which prints the same totals.
private enum HeapGauge {
  /// Whether the figure follows allocations: not under a sanitizer, whose allocator glibc does
  /// not see, and not where glibc is absent.
  static let isAccurate: Bool = {
    guard let before = bytesInUse() else { return false }
    let probeBytes = 8 * 1024 * 1024
    let probe = UnsafeMutableRawPointer.allocate(byteCount: probeBytes, alignment: 16)
    defer { probe.deallocate() }
    guard let during = bytesInUse() else { return false }
    return during - before >= probeBytes
  }()

  /// The heap in use, in bytes; `nil` where it cannot be measured.
  static func bytesInUse() -> Int? {
    #if canImport(Glibc)
      typealias MallocInfo = @convention(c) (Int32, UnsafeMutablePointer<FILE>?) -> Int32
      guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "malloc_info") else { return nil }
      let mallocInfo = unsafeBitCast(symbol, to: MallocInfo.self)
      var buffer: UnsafeMutablePointer<CChar>?
      var size = 0
      guard let stream = open_memstream(&buffer, &size) else { return nil }
      let status = mallocInfo(0, stream)
      fclose(stream)
      defer { free(buffer) }
      guard status == 0, let buffer else { return nil }
      // After the last arena come the process totals, one per line, such as
      // <system type="current" size="135168"/>. In use = obtained - free + mmapped.
      let lines = String(cString: buffer).split(separator: "\n")
      guard let lastArena = lines.lastIndex(of: "</heap>") else { return nil }
      var totals: [String: Int] = [:]
      for line in lines[(lastArena + 1)...] {
        // Such as ["<system type=", "current", " size=", "135168", "/>"]: the size comes last.
        let parts = line.split(separator: "\"")
        if parts.count >= 5, let value = Int(parts[parts.count - 2]) {
          totals[String(parts[1])] = value
        }
      }
      guard let current = totals["current"], let fast = totals["fast"], let rest = totals["rest"],
        let mmapped = totals["mmap"]
      else { return nil }
      return current - fast - rest + mmapped
    #else
      return nil
    #endif
  }
}
