#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One pointer-sized slot of thread-local storage.
///
/// Used for state that belongs to one synchronous stretch of code on one thread: the update
/// closure being run (so that seed-style `Self[Key.self]` accessors reach it) and, in debug
/// builds, the chain of defaults being created (for cycle detection). Task-locals would be
/// wrong for both: they are inherited by child tasks, and binding one costs an allocation.
/// POSIX thread-specific data exists on every platform the package declares.
@usableFromInline
struct ThreadLocal: Sendable {
  @usableFromInline let key: pthread_key_t

  init() {
    var key = pthread_key_t()
    let status = pthread_key_create(&key, nil)
    precondition(status == 0, "Injection: pthread_key_create failed (\(status))")
    self.key = key
  }

  @inlinable
  var value: UnsafeMutableRawPointer? {
    get { pthread_getspecific(key) }
    nonmutating set { pthread_setspecific(key, newValue) }
  }
}
