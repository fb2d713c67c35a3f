import BenchmarkSupport
import Injection

/// Default-read throughput on one thread and on two, each thread doing its share of the
/// operations, with raw task-local reads beside them to show what the machine allows.
///
/// Twice: for a class instance, whose reference count every reader updates, and for a value,
/// which readers only copy. For the value, also read by key type (`InjectedValues[Key.self]`,
/// no key path), and a raw key-path read with no library code, which shows what applying a key
/// path allows in debug builds. Then for a value set globally (after the other phases: a global
/// value, once set, stays), its own key, so no other case reads it.
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
      + pair("scaling.value.by-key", "default read, InjectedValues[Key.self], value") {
        for _ in 0..<$0 { blackHole(InjectedValues[ValueServiceKey.self].call()) }
      }
      // What the standard library's key-path projection allows, with no library code: in debug
      // builds, where a key path is applied at run time, every `InjectedValues[\.x]` pays it.
      // The key path is made once, so only its application is measured.
      + pair("scaling.value.key-path", "raw key-path read of a plain struct, value", target: nil) {
        let keyPath = \PlainValues.valueService
        for _ in 0..<$0 { blackHole(PlainValues()[keyPath: keyPath].call()) }
      }
      + pair(
        "scaling.global",
        #"read of a global value, InjectedValues[\.x], value"#,
        phase: .afterGlobalWrite,
        setUp: { InjectedValues[\.globalValueService] = ValueService(id: 6) }
      ) {
        for _ in 0..<$0 { blackHole(InjectedValues[\.globalValueService].call()) }
      }
  }

  /// Two cases: `read` on 1 thread, and split over 2 threads, compared by throughput.
  private static func pair(
    _ id: String,
    _ title: String,
    target: Target? = .atLeast(1.8, "≥ 1.8× the 1-thread throughput"),
    phase: Benchmark.Phase = .main,
    setUp: @escaping () -> Void = {},
    read: @escaping @Sendable (_ iterations: Int) -> Void
  ) -> [Benchmark] {
    let oneThread = Benchmark(
      "\(id).1-thread",
      "\(title), 1 thread",
      group: Group.scaling,
      phase: phase
    ) { iterations in
      setUp()
      Threads.run(1) { _ in read(iterations) }
    }
    let twoThreads = Benchmark(
      "\(id).2-threads",
      "\(title), 2 threads",
      group: Group.scaling,
      baseline: oneThread.id,
      comparison: .throughput,
      target: target,
      phase: phase
    ) { iterations in
      setUp()
      Threads.run(2) { index in read(index == 0 ? iterations / 2 : iterations - iterations / 2) }
    }
    return [oneThread, twoThreads]
  }
}

/// A struct with one computed property that returns the default, read through a key path in
/// `scaling.value.key-path`.
struct PlainValues {
  var valueService: any Service { ValueServiceKey.currentValue }
}
