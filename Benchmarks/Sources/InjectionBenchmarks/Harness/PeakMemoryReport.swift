/// Prints the peak memory of the per-request simulations.
///
/// Each simulation runs once in a child process (see `ChildProcess`), and its peak resident
/// set size is compared with that of a child that serves a single request: the difference is
/// what the requests themselves needed at their peak.
enum PeakMemoryReport {
  /// Prints the table; returns whether every child process ran and reported its peak.
  static func print(_ benchmarks: [Benchmark], requests: Int) -> Bool {
    guard !benchmarks.isEmpty else { return true }
    var succeeded = true
    Swift.print("\n## Peak memory\n")
    Swift.print(
      "Peak resident set size of a child process serving \(Format.grouped(requests)) requests, "
        + "and of one serving 1 request.\n"
    )
    Swift.print("| case | id | peak RSS | peak RSS, 1 request | difference |")
    Swift.print("|---|---|---:|---:|---:|")
    for benchmark in benchmarks {
      let all = peak(benchmark, requests)
      let one = peak(benchmark, 1)
      let difference = both(all, one).map { Format.bytes($0 - $1) }
      if difference == nil { succeeded = false }
      let cells = [
        benchmark.title.replacingBars, "`\(benchmark.id)`", all.map(Format.bytes) ?? "–",
        one.map(Format.bytes) ?? "–", difference ?? "–",
      ]
      Swift.print("| " + cells.joined(separator: " | ") + " |")
    }
    return succeeded
  }

  /// The peak resident set size of a child process that runs `iterations` operations of
  /// `benchmark`, or `nil` if it failed.
  static func peak(_ benchmark: Benchmark, _ iterations: Int) -> Int? {
    let arguments = ["--filter", benchmark.id, "--iterations", String(iterations)]
    return TextFile.withTemporaryFile { output in
      guard ChildProcess.run(ChildProcess.executable, arguments, outputPath: output) else {
        return nil
      }
      return TextFile.number(after: PeakMemory.label, in: output)
    } ?? nil
  }
}

/// Both values, if both are present.
private func both(_ first: Int?, _ second: Int?) -> (Int, Int)? {
  guard let first, let second else { return nil }
  return (first, second)
}
