/// Prints the memory that global values take.
///
/// Each case runs twice, each time in a child process of its own: once setting `keys` distinct
/// keys globally, once setting 1. The difference between their peak resident set sizes is what
/// the global values took. Both children make the metadata of every key type first, so the
/// difference is the library's storage, not the types'.
enum GlobalMemoryReport {
  /// Prints the table, judging targets if `judgesTargets` (not in a smoke pass, which sets
  /// fewer keys); returns whether every child process ran and reported its peak.
  static func print(_ benchmarks: [Benchmark], keys: Int, judgesTargets: Bool) -> Bool {
    guard !benchmarks.isEmpty else { return true }
    var succeeded = true
    Swift.print("\n## Global values memory\n")
    Swift.print(
      "Peak resident set size of a child process setting \(Format.grouped(keys)) distinct "
        + "keys globally, and of one setting 1 key (the baseline).\n"
    )
    Swift.print("| case | id | peak RSS | peak RSS, 1 key | difference | target |")
    Swift.print("|---|---|---:|---:|---:|---|")
    for benchmark in benchmarks {
      let all = PeakMemoryReport.peak(benchmark, keys)
      let one = PeakMemoryReport.peak(benchmark, 1)
      var difference: Int?
      if let all, let one { difference = all - one } else { succeeded = false }
      var verdict = ""
      if let target = benchmark.target, let difference, judgesTargets {
        verdict = "\(target.text): **\(target.isMet(by: Double(difference)) ? "met" : "missed")**"
      }
      let cells = [
        "\(benchmark.title.replacingBars), \(Format.grouped(keys))", "`\(benchmark.id)`",
        all.map(Format.mebibytes) ?? "–", one.map(Format.mebibytes) ?? "–",
        difference.map(Format.mebibytes) ?? "–", verdict,
      ]
      Swift.print("| " + cells.joined(separator: " | ") + " |")
    }
    return succeeded
  }
}
