/// One benchmark case: an operation, run a given number of times per measurement.
struct Benchmark {
  /// How a case's time relates to its baseline's.
  enum Comparison {
    /// Cost per operation: the ratio is this case's time over the baseline's (lower is better).
    case cost
    /// Throughput: the ratio is the baseline's time over this case's (higher is better).
    case throughput
  }

  /// When a case runs. Global values cannot be removed once set, so the cases that set one run
  /// after all the others.
  enum Phase: Int, Comparable {
    case main
    case afterGlobalWrite
    /// Never timed: the case runs only with `--iterations`, in a child process of its own (it
    /// changes the process too much for the cases after it).
    case childProcess

    static func < (lhs: Phase, rhs: Phase) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  /// Runs the operation `iterations` times. May set up a scope or threads around the loop.
  typealias Body = (_ iterations: Int) -> Void

  /// A stable identifier, used by `--filter` and the instruction-count script.
  let id: String
  /// What the case measures, for the report.
  let title: String
  /// The section of the report the case belongs to.
  let group: String
  /// The id of the case this one is compared with; `nil` for a case compared with nothing.
  let baseline: String?
  let comparison: Comparison
  /// The goal for the ratio to the baseline, if the project sets one.
  let target: Target?
  let phase: Phase
  /// The most heap objects one operation may allocate, if the project sets a limit.
  let allocationLimit: Int?
  /// For cases with a fixed size (the per-request simulation): the operations per measurement.
  /// Such cases are not calibrated.
  let fixedIterations: Int?
  let body: Body

  init(
    _ id: String,
    _ title: String,
    group: String,
    baseline: String? = nil,
    comparison: Comparison = .cost,
    target: Target? = nil,
    phase: Phase = .main,
    allocationLimit: Int? = nil,
    fixedIterations: Int? = nil,
    body: @escaping Body
  ) {
    self.id = id
    self.title = title
    self.group = group
    self.baseline = baseline
    self.comparison = comparison
    self.target = target
    self.phase = phase
    self.allocationLimit = allocationLimit
    self.fixedIterations = fixedIterations
    self.body = body
  }
}

/// A goal for a case's ratio to its baseline.
struct Target {
  enum Bound {
    case atMost(Double)
    case atLeast(Double)
  }

  /// What the goal is stated in: the harness judges times; instruction counts are judged by
  /// Benchmarks/instruction-counts.sh, allocations by the allocation report (with the
  /// case's `allocationLimit`), memory by the report of the case's section.
  enum Metric {
    case time
    case instructions
    case allocations
    /// Bytes of peak memory, judged by the report of the case's own section.
    case memory
  }

  let bound: Bound
  /// The goal as the project states it.
  let text: String
  let metric: Metric

  static func atMost(_ limit: Double, _ text: String, in metric: Metric = .time) -> Target {
    Target(bound: .atMost(limit), text: text, metric: metric)
  }

  static func atLeast(_ limit: Double, _ text: String, in metric: Metric = .time) -> Target {
    Target(bound: .atLeast(limit), text: text, metric: metric)
  }

  /// The bound as `<=2.5` or `>=1.8`, for scripts.
  var boundText: String {
    switch bound {
    case .atMost(let limit): "<=\(limit)"
    case .atLeast(let limit): ">=\(limit)"
    }
  }

  func isMet(by ratio: Double) -> Bool {
    switch bound {
    case .atMost(let limit): ratio <= limit
    case .atLeast(let limit): ratio >= limit
    }
  }
}
