import Dispatch

/// Runs asynchronous work from the synchronous `main`.
enum AsyncWork {
  /// Runs `body` in one new task, and blocks the calling thread until the task has finished.
  static func run(_ body: @escaping @Sendable () async -> Void) {
    let finished = DispatchSemaphore(value: 0)
    Task.detached {
      await body()
      finished.signal()
    }
    finished.wait()
  }
}
