import Dispatch

@testable import ServerExample

/// Nanoseconds since an arbitrary point, on a clock that never goes back.
func monotonicNanoseconds() -> UInt64 {
  DispatchTime.now().uptimeNanoseconds
}

/// Formats nanoseconds as seconds with two decimals, such as "1.25 s".
func seconds(_ nanoseconds: UInt64) -> String {
  let hundredths = (nanoseconds + 5_000_000) / 10_000_000
  let fraction = hundredths % 100
  return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) s"
}

/// Waits for `task` to finish, for at most `timeoutSeconds`; returns whether it finished.
///
/// The wait is not structured on purpose: if the task never finishes, the test fails after the
/// timeout instead of hanging.
func finishes<Success: Sendable>(
  _ task: Task<Success, any Error>,
  withinSeconds timeoutSeconds: UInt64
) async -> Bool {
  let outcome = FirstOutcome()
  return await withCheckedContinuation { continuation in
    outcome.install(continuation)
    let timer = Task {
      try? await Task.sleep(nanoseconds: timeoutSeconds * 1_000_000_000)
      outcome.report(false)
    }
    Task {
      _ = try? await task.value
      outcome.report(true)
      timer.cancel()
    }
  }
}

/// Resumes a continuation with the first of several reports; later ones are ignored.
private final class FirstOutcome: Sendable {
  private struct State {
    var continuation: CheckedContinuation<Bool, Never>?
    var result: Bool?
  }

  private let state = Lock(State())

  func install(_ continuation: CheckedContinuation<Bool, Never>) {
    let result = state.withLock { state in
      if state.result == nil { state.continuation = continuation }
      return state.result
    }
    if let result { continuation.resume(returning: result) }
  }

  func report(_ result: Bool) {
    let continuation = state.withLock { state in
      guard state.result == nil else { return CheckedContinuation<Bool, Never>?.none }
      state.result = result
      defer { state.continuation = nil }
      return state.continuation
    }
    continuation?.resume(returning: result)
  }
}
