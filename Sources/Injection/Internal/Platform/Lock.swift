#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

// POSIX mutexes and condition variables exist on every platform the package
// declares (macOS 10.15, iOS 13, tvOS 13, watchOS 6, Linux), so none needs an availability check.
// Each lives in an allocation of its own: a pthread object must not move once initialized, which
// a Swift stored property does not promise.

/// A mutual-exclusion lock, with a condition to wait on.
@usableFromInline
final class Lock: @unchecked Sendable {
  // Safe: the mutex and condition are only touched through pthread calls, which synchronize
  // themselves.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private let condition: UnsafeMutablePointer<pthread_cond_t>

  init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    condition = .allocate(capacity: 1)
    condition.initialize(to: pthread_cond_t())
    let status = (pthread_mutex_init(mutex, nil), pthread_cond_init(condition, nil))
    precondition(status == (0, 0), "Injection: cannot create a lock (\(status))")
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    condition.deallocate()
    mutex.deallocate()
  }

  /// Runs `body` while holding the lock. `body` must never call user code.
  func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    lock()
    defer { unlock() }
    return try body()
  }

  /// Takes the lock; `unlock()` must follow, with no user code run in between.
  @usableFromInline
  func lock() {
    pthread_mutex_lock(mutex)
  }

  /// Releases the lock that `lock()` took.
  @usableFromInline
  func unlock() {
    pthread_mutex_unlock(mutex)
  }

  /// A moment to stop waiting at, on the clock that `wait(until:)` uses.
  struct Deadline {
    fileprivate var time: timespec

    /// The moment `seconds` from now.
    init(afterSeconds seconds: Int) {
      time = timespec()
      clock_gettime(CLOCK_REALTIME, &time)
      time.tv_sec += seconds
    }
  }

  /// While holding the lock: releases it until another thread calls `wakeAll()`, or `deadline`
  /// passes, then takes it again; returns `false` if the deadline passed first. Callers loop on
  /// the condition they wait for.
  func wait(until deadline: Deadline?) -> Bool {
    guard var time = deadline?.time else { return pthread_cond_wait(condition, mutex) == 0 }
    return pthread_cond_timedwait(condition, mutex, &time) != ETIMEDOUT
  }

  /// Wakes every thread waiting in `wait(until:)`.
  func wakeAll() {
    pthread_cond_broadcast(condition)
  }
}

extension Lock {
  /// Locks shared by objects whose state is rarely locked, so that each needs no lock of its own.
  private static let stripes = (0..<16).map { _ in Lock() }
  /// The same, for objects whose lock may be taken while one of `stripes` is held.
  private static let innerStripes = (0..<16).map { _ in Lock() }

  /// The shared lock of `object`, chosen by its address: objects with different locks never
  /// wait for each other, and ones that share a lock only while both hold it.
  @usableFromInline
  static func striped(for object: AnyObject) -> Lock {
    stripes[stripe(of: object)]
  }

  /// A shared lock of `object` that may be taken while holding a lock of `striped(for:)`, and
  /// never the other way round.
  static func innerStriped(for object: AnyObject) -> Lock {
    innerStripes[stripe(of: object)]
  }

  private static func stripe(of object: AnyObject) -> Int {
    Int(truncatingIfNeeded: UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque()) >> 6) & 15
  }
}

/// A value guarded by a `Lock`. `package`, because the InjectionTesting module guards its
/// strict-mode state with it.
package final class Locked<State: Sendable>: @unchecked Sendable {
  // Safe: `state` is read and written only inside `withLock`, under `lock`.
  private let lock = Lock()
  private var state: State

  package init(_ state: State) { self.state = state }

  /// Runs `body` on the state while holding the lock. `body` must not call user code.
  package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    try lock.withLock { try body(&state) }
  }
}

/// An identity of the current thread, for comparisons only.
@usableFromInline
func currentThreadID() -> UInt {
  #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
  #else
    UInt(pthread_self())
  #endif
}
