import BenchmarkSupport

/// What the library is compared with: reading a global constant, and raw task-locals.
enum BaselineCases {
  static var all: [Benchmark] {
    [staticLet, taskLocal, taskLocalBound, withValue, withValueAsync]
  }

  static var staticLet: Benchmark {
    Benchmark(BaselineID.staticLet, "static let read (the loop floor)", group: Group.baselines) {
      iterations in
      for _ in 0..<iterations { blackHole(Services.plain.call()) }
    }
  }

  static var taskLocal: Benchmark {
    Benchmark(BaselineID.taskLocal, "raw @TaskLocal read, unbound", group: Group.baselines) {
      iterations in
      readTaskLocal(iterations)
    }
  }

  static var taskLocalBound: Benchmark {
    Benchmark(
      BaselineID.taskLocalBound,
      "raw @TaskLocal read, bound",
      group: Group.baselines,
      baseline: BaselineID.taskLocal
    ) { iterations in
      RawTaskLocals.$service.withValue(Services.mock) { readTaskLocal(iterations) }
    }
  }

  static var withValue: Benchmark {
    Benchmark(BaselineID.withValue, "raw $x.withValue(v) {} entry", group: Group.baselines) {
      iterations in
      let mock = Services.mock
      for _ in 0..<iterations {
        RawTaskLocals.$service.withValue(mock) {}
      }
    }
  }

  /// The entry in an asynchronous context: one task runs the whole loop. The operation must
  /// be written `{ () async in }`: an empty `{}` would select the synchronous overload.
  static var withValueAsync: Benchmark {
    Benchmark(
      BaselineID.withValueAsync,
      "raw await $x.withValue(v) {} entry, in a task",
      group: Group.baselines
    ) { iterations in
      let mock = Services.mock
      AsyncWork.run {
        for _ in 0..<iterations {
          await RawTaskLocals.$service.withValue(mock) { () async in }
        }
      }
    }
  }

  /// The unbound read again, in the phase after a global write: the baseline of the case
  /// that reads while another key has a global value.
  static var taskLocalAfterGlobalWrite: Benchmark {
    Benchmark(
      BaselineID.taskLocalAfterGlobalWrite,
      "raw @TaskLocal read, unbound (again, in this phase)",
      group: Group.reads,
      phase: .afterGlobalWrite
    ) { iterations in
      readTaskLocal(iterations)
    }
  }

  static func readTaskLocal(_ iterations: Int) {
    for _ in 0..<iterations { blackHole(RawTaskLocals.service.call()) }
  }
}
