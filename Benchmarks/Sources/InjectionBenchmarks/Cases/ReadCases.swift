import BenchmarkSupport
import Injection

/// Reading a dependency: by default, overridden, under many overrides or scopes, and while
/// another key has a global value.
enum ReadCases {
  static var all: [Benchmark] {
    [
      defaultRead, defaultReadInjected, overriddenRead, overriddenReadInjected,
      readWith64Overrides, readIn10NestedScopes, readBuiltLazyValue,
      BaselineCases.taskLocalAfterGlobalWrite, readWhileAnotherKeyIsGlobal,
    ]
  }

  static var defaultRead: Benchmark {
    Benchmark(
      "read.default",
      #"default read, InjectedValues[\.x]"#,
      group: Group.reads,
      baseline: BaselineID.taskLocal,
      target: .atMost(2, "≤ 2× a raw TaskLocal read"),
      allocationLimit: 0
    ) { iterations in
      readThroughSubscript(iterations)
    }
  }

  static var defaultReadInjected: Benchmark {
    Benchmark(
      "read.default.injected",
      "default read, @Injected",
      group: Group.reads,
      baseline: BaselineID.taskLocal,
      target: .atMost(2.5, "≤ 2.5× a raw TaskLocal read, in instructions", in: .instructions),
      allocationLimit: 0
    ) { iterations in
      readThroughWrapper(makeHolder(), iterations)
    }
  }

  static var overriddenRead: Benchmark {
    Benchmark(
      BaselineID.overriddenRead,
      #"overridden read, 1 scope, InjectedValues[\.x]"#,
      group: Group.reads,
      baseline: BaselineID.taskLocalBound,
      target: .atMost(2, "≤ 2× a raw bound TaskLocal read")
    ) { iterations in
      withInjectedValues {
        $0.service = Services.mock
      } operation: {
        readThroughSubscript(iterations)
      }
    }
  }

  static var overriddenReadInjected: Benchmark {
    Benchmark(
      "read.overridden.injected",
      "overridden read, 1 scope, @Injected",
      group: Group.reads,
      baseline: BaselineID.taskLocal,
      target: .atMost(2.5, "≤ 2.5× a raw TaskLocal read, in instructions", in: .instructions)
    ) { iterations in
      let holder = makeHolder()
      withInjectedValues {
        $0.service = Services.mock
      } operation: {
        readThroughWrapper(holder, iterations)
      }
    }
  }

  /// The key read is overridden first, so 63 later overrides sit above it in the scope.
  static var readWith64Overrides: Benchmark {
    Benchmark(
      "read.overridden.64-overrides",
      "overridden read, 64 overrides in the scope",
      group: Group.reads,
      baseline: BaselineID.overriddenRead,
      target: .atMost(1.2, "within 1.2× of the single-override read")
    ) { iterations in
      withInjectedValues {
        $0.service = Services.mock
        for filler in 0..<63 { Fillers.override(filler, in: &$0) }
      } operation: {
        readThroughSubscript(iterations)
      }
    }
  }

  /// The key read is overridden in the outermost scope; 9 scopes inside override other keys.
  static var readIn10NestedScopes: Benchmark {
    Benchmark(
      "read.overridden.10-scopes",
      "overridden read, 10 nested scopes",
      group: Group.reads,
      baseline: BaselineID.overriddenRead,
      target: .atMost(1.2, "within 1.2× of the single-override read")
    ) { iterations in
      withInjectedValues {
        $0.service = Services.mock
      } operation: {
        Fillers.withNestedScopes(9) { readThroughSubscript(iterations) }
      }
    }
  }

  /// The scope declares a lazy value, which one read before the loop builds: the loop reads
  /// the built value.
  static var readBuiltLazyValue: Benchmark {
    Benchmark(
      "read.lazy.built",
      #"lazy value read once built, 1 scope, InjectedValues[\.x]"#,
      group: Group.reads,
      baseline: BaselineID.overriddenRead,
      target: .atMost(1.3, "≤ 1.3× an overridden read, in instructions", in: .instructions)
    ) { iterations in
      withInjectedValues {
        $0.lazy(\.service) { LiveService(id: 9) }
      } operation: {
        blackHole(InjectedValues[\.service].call())
        readThroughSubscript(iterations)
      }
    }
  }

  /// Runs after every other phase: a global value, once set, stays for the whole process.
  static var readWhileAnotherKeyIsGlobal: Benchmark {
    Benchmark(
      "read.default.other-key-global",
      "default read while another key has a global value",
      group: Group.reads,
      baseline: BaselineID.taskLocalAfterGlobalWrite,
      target: .atMost(2, "≤ 2× a raw TaskLocal read"),
      phase: .afterGlobalWrite
    ) { iterations in
      InjectedValues[\.globalService] = Services.mock
      readThroughSubscript(iterations)
    }
  }

  static func readThroughSubscript(_ iterations: Int) {
    for _ in 0..<iterations { blackHole(InjectedValues[\.service].call()) }
  }

  static func readThroughWrapper(_ holder: Holder, _ iterations: Int) {
    for _ in 0..<iterations { blackHole(holder.dependencies.service.call()) }
  }
}
