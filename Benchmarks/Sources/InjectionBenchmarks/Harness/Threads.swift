#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs work on plain POSIX threads: not tasks, so `main` stays synchronous, and not a pool,
/// so every thread really starts.
enum Threads {
  /// The work of one thread.
  private final class Job: Sendable {
    let work: @Sendable () -> Void

    init(_ work: @escaping @Sendable () -> Void) { self.work = work }
  }

  /// Starts `work` on a new thread. Join the thread with `pthread_join`.
  static func start(_ work: @escaping @Sendable () -> Void) -> pthread_t {
    let job = Unmanaged.passRetained(Job(work)).toOpaque()
    var thread = pthread_t()
    let status = pthread_create(
      &thread,
      nil,
      { argument in
        Unmanaged<Job>.fromOpaque(argument!).takeRetainedValue().work()
        return nil
      },
      job
    )
    precondition(status == 0, "pthread_create failed (\(status))")
    return thread
  }

  /// Runs `work(index)` for each index in `0..<count`, each on a new thread, and waits for all.
  static func run(_ count: Int, _ work: @escaping @Sendable (_ index: Int) -> Void) {
    let threads = (0..<count).map { index in start { work(index) } }
    for thread in threads { pthread_join(thread, nil) }
  }
}
