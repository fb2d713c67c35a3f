#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A mutual-exclusion lock around a value, built on a POSIX mutex.
///
/// It guards the example's shared mutable state: the poller's table of waiting tasks, and the
/// stand-in database's counters and connections. (`Synchronization.Mutex` would do, but needs
/// macOS 15 on Apple platforms.)
final class Lock<Value: Sendable>: @unchecked Sendable {
  // Safe: `value` is read and written only inside `withLock`, while `mutex` is held. The mutex
  // lives in its own allocation because a `pthread_mutex_t` must not move once initialized.
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private var value: Value

  init(_ value: Value) {
    self.value = value
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Runs `body` with exclusive access to the value. `body` must not block or suspend.
  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}
