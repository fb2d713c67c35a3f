import BenchmarkSupport
import Injection

/// A request's work without the task around it: a scope overriding three dependencies, and ten
/// reads of them inside it; the baseline binds three raw task-locals, one inside the other, and
/// reads them as often. Synchronously, and inside one task that runs the whole loop with the
/// asynchronous scope functions.
///
/// The reads are two rounds of five (the first dependency, the second, the third, the first,
/// the second), in a loop whose count the optimizer cannot see, as in `PerRequestCases`.
///
/// Each case writes its scope out, as app code does. With the scope in a shared helper that
/// took the reads as a closure, the counts moved by up to 5% (an indirect call in the
/// synchronous cases, other inlining in the asynchronous ones), so only the overrides and the
/// reads, which are always inlined, are shared.
enum RequestCases {
  static let rounds = opaque(2)

  static var all: [Benchmark] {
    [rawSync, scopeSync, scopeSyncInjected, rawAsync, scopeAsync, scopeAsyncInjected]
  }

  static let rawSyncID = "request.sync.task-local"
  static let rawAsyncID = "request.async.task-local"
  static let target = Target.atMost(1.4, "≤ 1.4× the raw request")

  // MARK: - Synchronous

  static var rawSync: Benchmark {
    Benchmark(rawSyncID, "raw @TaskLocal: 3 nested withValue, 10 reads", group: Group.requests) {
      iterations in
      let mock = Services.mock
      for _ in 0..<iterations {
        RawTaskLocals.$service.withValue(mock) {
          RawTaskLocals.$secondService.withValue(mock) {
            RawTaskLocals.$thirdService.withValue(mock) { blackHole(readRaw()) }
          }
        }
      }
    }
  }

  static var scopeSync: Benchmark {
    Benchmark(
      "request.sync.scope",
      #"scope with 3 overrides, 10 InjectedValues[\.x] reads"#,
      group: Group.requests,
      baseline: rawSyncID,
      target: target
    ) { iterations in
      let mock = Services.mock
      for _ in 0..<iterations {
        withInjectedValues {
          overrideAll(&$0, with: mock)
        } operation: {
          blackHole(readThroughSubscript())
        }
      }
    }
  }

  static var scopeSyncInjected: Benchmark {
    let holder = makeRequestHolder()
    return Benchmark(
      "request.sync.scope.injected",
      "scope with 3 overrides, 10 @Injected reads",
      group: Group.requests,
      baseline: rawSyncID,
      target: target
    ) { iterations in
      let mock = Services.mock
      for _ in 0..<iterations {
        withInjectedValues {
          overrideAll(&$0, with: mock)
        } operation: {
          blackHole(readThroughWrappers(holder.dependencies))
        }
      }
    }
  }

  // MARK: - Asynchronous, in a task

  static var rawAsync: Benchmark {
    Benchmark(
      rawAsyncID,
      "raw @TaskLocal: 3 nested await withValue, 10 reads, in a task",
      group: Group.requests
    ) { iterations in
      let mock = Services.mock
      AsyncWork.run {
        for _ in 0..<iterations {
          await RawTaskLocals.$service.withValue(mock) { () async in
            await RawTaskLocals.$secondService.withValue(mock) { () async in
              await RawTaskLocals.$thirdService.withValue(mock) { () async in blackHole(readRaw()) }
            }
          }
        }
      }
    }
  }

  static var scopeAsync: Benchmark {
    Benchmark(
      "request.async.scope",
      #"async scope with 3 overrides, 10 InjectedValues[\.x] reads, in a task"#,
      group: Group.requests,
      baseline: rawAsyncID,
      target: target
    ) { iterations in
      let mock = Services.mock
      AsyncWork.run {
        for _ in 0..<iterations {
          await withInjectedValues {
            overrideAll(&$0, with: mock)
          } operation: { () async in
            blackHole(readThroughSubscript())
          }
        }
      }
    }
  }

  static var scopeAsyncInjected: Benchmark {
    let holder = makeRequestHolder()
    return Benchmark(
      "request.async.scope.injected",
      "async scope with 3 overrides, 10 @Injected reads, in a task",
      group: Group.requests,
      baseline: rawAsyncID,
      target: target
    ) { iterations in
      let mock = Services.mock
      AsyncWork.run {
        for _ in 0..<iterations {
          await withInjectedValues {
            overrideAll(&$0, with: mock)
          } operation: { () async in
            blackHole(readThroughWrappers(holder.dependencies))
          }
        }
      }
    }
  }

  // MARK: - The overrides and the reads

  @inline(__always)
  private static func overrideAll(_ values: inout InjectedValues, with mock: any Service) {
    values.service = mock
    values.secondService = mock
    values.thirdService = mock
  }

  @inline(__always)
  private static func readRaw() -> Int {
    var sum = 0
    for _ in 0..<rounds {
      sum &+= RawTaskLocals.service.call() &+ RawTaskLocals.secondService.call()
      sum &+= RawTaskLocals.thirdService.call() &+ RawTaskLocals.service.call()
      sum &+= RawTaskLocals.secondService.call()
    }
    return sum
  }

  @inline(__always)
  private static func readThroughSubscript() -> Int {
    var sum = 0
    for _ in 0..<rounds {
      sum &+= InjectedValues[\.service].call() &+ InjectedValues[\.secondService].call()
      sum &+= InjectedValues[\.thirdService].call() &+ InjectedValues[\.service].call()
      sum &+= InjectedValues[\.secondService].call()
    }
    return sum
  }

  @inline(__always)
  private static func readThroughWrappers(_ dependencies: RequestHolder.Dependencies) -> Int {
    var sum = 0
    for _ in 0..<rounds {
      sum &+= dependencies.service.call() &+ dependencies.secondService.call()
      sum &+= dependencies.thirdService.call() &+ dependencies.service.call()
      sum &+= dependencies.secondService.call()
    }
    return sum
  }
}
