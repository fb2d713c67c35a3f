import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Blocking waits for async tests. Apple's SDKs make `DispatchSemaphore.wait()`,
// `DispatchGroup.wait()` and `pthread_join` unavailable from asynchronous contexts (an async
// function or closure, an exit test's body), and the test target does not compile on a Mac if one
// is called there; Linux's SDK has no such mark. Called through these synchronous functions, the
// wait compiles everywhere and still blocks the thread it runs on, so wait only for GCD blocks and
// threads of your own, never for a task. `.ci/no-async-blocking.sh` finds direct calls.

/// Blocks the calling thread until `semaphore` is signalled.
func waitOnThisThread(_ semaphore: DispatchSemaphore) {
  semaphore.wait()
}

/// Blocks the calling thread until every block of `group` has finished.
func waitOnThisThread(_ group: DispatchGroup) {
  group.wait()
}

/// Blocks the calling thread until each of `threads` has ended.
func joinOnThisThread(_ threads: [pthread_t]) {
  for thread in threads { pthread_join(thread, nil) }
}
