/// Runs cases: warm-up and calibration per case, then repetitions round-robin across cases.
struct Runner {
  let options: Options

  /// Iterations per measurement in a smoke pass.
  static let smokeIterations = 1_000

  /// Measures `benchmarks`, phase by phase, each phase round-robin.
  func measure(_ benchmarks: [Benchmark]) -> [Measurement] {
    let phases = Set(benchmarks.map(\.phase)).sorted()
    return phases.flatMap { phase in
      measureRoundRobin(benchmarks.filter { $0.phase == phase })
    }
  }

  private var repetitions: Int {
    options.iterations != nil || options.smoke ? 1 : options.repetitions
  }

  private func measureRoundRobin(_ benchmarks: [Benchmark]) -> [Measurement] {
    var measurements = benchmarks.map { benchmark in
      Measurement(benchmark: benchmark, iterations: iterations(for: benchmark))
    }
    for repetition in 0..<repetitions {
      progress("repetition \(repetition + 1) of \(repetitions)")
      for index in measurements.indices {
        let benchmark = measurements[index].benchmark
        let iterations = measurements[index].iterations
        let nanoseconds = TimedLoop.measure { benchmark.body(iterations) }
        measurements[index].samples.append(Double(nanoseconds) / Double(iterations))
      }
    }
    return measurements
  }

  /// How many operations one measurement of `benchmark` runs. Warms the case up on the way.
  private func iterations(for benchmark: Benchmark) -> Int {
    if let iterations = options.iterations { return iterations }
    if options.smoke {
      return min(benchmark.fixedIterations ?? Self.smokeIterations, Self.smokeIterations)
    }
    progress("warming up \(benchmark.id)")
    if let fixed = benchmark.fixedIterations {
      benchmark.body(max(1, fixed / 10))
      return fixed
    }
    // Warm-up: one run of the target length, sized by a first calibration; then calibrate
    // again on the warm case.
    benchmark.body(calibrate(benchmark))
    return calibrate(benchmark)
  }

  /// Grows the iteration count until a run takes a twentieth of the target time, then scales
  /// it to the target time.
  private func calibrate(_ benchmark: Benchmark) -> Int {
    let target = Double(options.milliseconds) * 1_000_000
    var iterations = 16
    while true {
      let nanoseconds = Double(TimedLoop.measure { benchmark.body(iterations) })
      if nanoseconds >= target / 20 {
        return max(1, Int(Double(iterations) * target / nanoseconds))
      }
      iterations *= 4
    }
  }

  private func progress(_ message: String) {
    if options.iterations == nil { Console.status(message) }
  }
}
