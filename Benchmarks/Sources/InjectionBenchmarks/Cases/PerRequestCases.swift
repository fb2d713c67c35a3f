import BenchmarkSupport
import Dispatch
import Injection

/// A server in miniature: every request is a task that enters a scope with two overrides and
/// reads dependencies ten times (five rounds of two reads); the same written with raw
/// task-locals is the baseline.
///
/// A driver task keeps `concurrency` requests in flight, in a task group, as a server bounds
/// its open connections; the synchronous `main` waits for the driver. Unbounded, the driver
/// would queue requests faster than they finish, and the peak memory would measure that
/// backlog rather than the requests.
enum PerRequestCases {
  static let requests = 100_000
  static let concurrency = 1_000
  /// How many times a request reads its two dependencies: 5, hidden from the optimizer so that
  /// no case's loop is unrolled. Unrolled, ten reads keep ten values in the request's
  /// asynchronous frame, which then outgrows the task's first slab of memory and costs two
  /// allocations more per request; whether the optimizer unrolled a case's loop depended on how
  /// much of the library it inlined, and the ratios measured that instead of the reads.
  static let rounds = opaque(5)

  static var all: [Benchmark] {
    [raw, throughSubscript, throughWrapper]
  }

  static var raw: Benchmark {
    simulation(BaselineID.rawRequests, "raw @TaskLocal: 2 withValue, 10 reads", baseline: nil) {
      await RawTaskLocals.$service.withValue(Services.mock) { () async in
        await RawTaskLocals.$secondService.withValue(Services.mock) { () async in
          var sum = 0
          for _ in 0..<rounds {
            sum &+= RawTaskLocals.service.call()
            sum &+= RawTaskLocals.secondService.call()
          }
          blackHole(sum)
        }
      }
    }
  }

  static var throughSubscript: Benchmark {
    simulation(
      "request.scope",
      #"scope with 2 overrides, 10 InjectedValues[\.x] reads"#,
      baseline: BaselineID.rawRequests
    ) {
      await inScopeWithTwoOverrides {
        InjectedValues[\.service].call() &+ InjectedValues[\.secondService].call()
      }
    }
  }

  static var throughWrapper: Benchmark {
    let holder = makeHolder()
    return simulation(
      "request.scope.injected",
      "scope with 2 overrides, 10 @Injected reads",
      baseline: BaselineID.rawRequests
    ) {
      await inScopeWithTwoOverrides {
        holder.dependencies.service.call() &+ holder.dependencies.secondService.call()
      }
    }
  }

  private static func simulation(
    _ id: String,
    _ title: String,
    baseline: String?,
    request: @escaping @Sendable () async -> Void
  ) -> Benchmark {
    Benchmark(
      id,
      title,
      group: Group.perRequest,
      baseline: baseline,
      comparison: .throughput,
      target: baseline.map { _ in .atLeast(0.85, "≥ 85% of the raw simulation's throughput") },
      fixedIterations: requests
    ) { iterations in
      serve(iterations, request)
    }
  }

  /// Runs `count` requests, each in a task of its own, at most `concurrency` at a time, and
  /// waits until all have finished.
  private static func serve(_ count: Int, _ request: @escaping @Sendable () async -> Void) {
    let finished = DispatchSemaphore(value: 0)
    Task.detached {
      await withTaskGroup(of: Void.self) { group in
        var started = 0
        while started < min(count, concurrency) {
          group.addTask(operation: request)
          started += 1
        }
        while await group.next() != nil {
          guard started < count else { continue }
          group.addTask(operation: request)
          started += 1
        }
      }
      finished.signal()
    }
    finished.wait()
  }

  /// One simulated request's work: a scope overriding both services, in which `readBoth`, which
  /// reads each service once, runs five times (ten reads).
  @inline(__always)
  private static func inScopeWithTwoOverrides(_ readBoth: () -> Int) async {
    await withInjectedValues {
      $0.service = Services.mock
      $0.secondService = Services.mock
    } operation: { () async in
      var sum = 0
      for _ in 0..<rounds { sum &+= readBoth() }
      blackHole(sum)
    }
  }
}
