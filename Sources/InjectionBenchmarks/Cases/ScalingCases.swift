import BenchmarkSupport
import Injection

/// Default-read throughput on one thread and on two, each thread doing its share of the
/// operations, with raw task-local reads beside them to show what the machine allows.
///
/// Twice: for a class instance, whose reference count every reader updates, and for a value,
/// which readers only copy.
enum ScalingCases {
  static var all: [Benchmark] {
    pair("scaling.task-local", "raw @TaskLocal read, class instance", target: nil) {
      for _ in 0..<$0 { blackHole(RawTaskLocals.service.call()) }
    }
      + pair("scaling.default", #"default read, InjectedValues[\.x], class instance"#) {
        for _ in 0..<$0 { blackHole(InjectedValues[\.service].call()) }
      }
      + pair("scaling.value.task-local", "raw @TaskLocal read, value", target: nil) {
        for _ in 0..<$0 { blackHole(RawTaskLocals.valueService.call()) }
      }
      + pair("scaling.value.default", #"default read, InjectedValues[\.x], value"#) {
        for _ in 0..<$0 { blackHole(InjectedValues[\.valueService].call()) }
      }
  }

  /// Two cases: `read` on 1 thread, and split over 2 threads, compared by throughput.
  private static func pair(
    _ id: String,
    _ title: String,
    target: Target? = .atLeast(1.8, "≥ 1.8× the 1-thread throughput"),
    read: @escaping @Sendable (_ iterations: Int) -> Void
  ) -> [Benchmark] {
    let oneThread = Benchmark("\(id).1-thread", "\(title), 1 thread", group: Group.scaling) {
      iterations in
      Threads.run(1) { _ in read(iterations) }
    }
    let twoThreads = Benchmark(
      "\(id).2-threads",
      "\(title), 2 threads",
      group: Group.scaling,
      baseline: oneThread.id,
      comparison: .throughput,
      target: target
    ) { iterations in
      Threads.run(2) { index in read(index == 0 ? iterations / 2 : iterations - iterations / 2) }
    }
    return [oneThread, twoThreads]
  }
}
