/// Lets a case time its loop alone, leaving out the set-up around it.
///
/// A case whose set-up costs more than a few operations (hundreds of overrides, a snapshot
/// with many writes) wraps its loop in `TimedLoop.run`; the runner then counts that time
/// rather than the whole body's, which would otherwise dominate short calibration runs. Cases
/// run on the main thread, and so does this.
enum TimedLoop {
  /// The time of the last `run` in the body being measured, if it called `run`.
  nonisolated(unsafe) private static var loopNanoseconds: UInt64?

  /// Runs `loop` and records how long it took, for `measure`.
  static func run(_ loop: () -> Void) {
    loopNanoseconds = Clock.measure(loop)
  }

  /// Runs `body` and returns how long its loop took, in nanoseconds: the time recorded by
  /// `run`, or, if `body` did not call it, the time of the whole body.
  static func measure(_ body: () -> Void) -> UInt64 {
    loopNanoseconds = nil
    let total = Clock.measure(body)
    defer { loopNanoseconds = nil }
    return loopNanoseconds ?? total
  }
}
