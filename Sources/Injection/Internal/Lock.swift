#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A mutual-exclusion lock over a heap-allocated `pthread_mutex_t`.
///
/// `pthread_mutex_t` must not move once initialized, so it lives in its own allocation rather
/// than in a Swift stored property. POSIX mutexes exist on every platform the package declares
/// (macOS 10.15, iOS 13, tvOS 13, watchOS 6, Linux), so no availability check is needed.
/// The lock is used only on paths where something is set globally, never on a plain read.
/// `package` so that InjectionTesting shares it instead of keeping a copy.
package final class Lock: @unchecked Sendable {
  // Safe: the mutex is only touched through pthread calls, which synchronize themselves.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>

  package init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    let status = pthread_mutex_init(mutex, nil)
    precondition(status == 0, "Injection: pthread_mutex_init failed (\(status))")
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Runs `body` while holding the lock. `body` must never call user code.
  package func withLock<R>(_ body: () throws -> R) rethrows -> R {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }
}

/// A value guarded by a `Lock`.
package final class Locked<State: Sendable>: @unchecked Sendable {
  // Safe: `state` is read and written only inside `withLock`, under `lock`.
  private let lock = Lock()
  private var state: State

  package init(_ state: State) { self.state = state }

  /// Runs `body` on the state while holding the lock. `body` must not call user code.
  package func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
    try lock.withLock { try body(&state) }
  }
}
