/// Prints measurements as Markdown tables, one per group, each case with its ratio to its
/// baseline and, where the project sets one, whether it meets its target.
struct Report {
  let measurements: [Measurement]
  /// Whether to judge targets: not for a smoke pass or a fixed-iteration run, which measure
  /// nothing worth judging.
  let judgesTargets: Bool

  func print(groups: [String]) {
    for group in groups {
      let rows = measurements.filter { $0.benchmark.group == group }
      guard !rows.isEmpty else { continue }
      Swift.print("\n## \(group)\n")
      Swift.print("| case | id | median ns/op | min ns/op | vs baseline | target |")
      Swift.print("|---|---|---:|---:|---|---|")
      for row in rows { Swift.print(line(for: row)) }
      let notes = rows.compactMap(note(for:))
      if !notes.isEmpty { Swift.print("\n" + notes.joined(separator: "\n")) }
    }
  }

  /// The ratio of `measurement` to its baseline, as its comparison defines it.
  func ratio(of measurement: Measurement) -> Double? {
    guard let id = measurement.benchmark.baseline,
      let baseline = measurements.first(where: { $0.benchmark.id == id })
    else { return nil }
    switch measurement.benchmark.comparison {
    case .cost: return measurement.median / baseline.median
    case .throughput: return baseline.median / measurement.median
    }
  }

  private func line(for measurement: Measurement) -> String {
    let benchmark = measurement.benchmark
    var comparison = benchmark.baseline == nil ? "(baseline)" : ""
    var verdict = ""
    if let ratio = ratio(of: measurement), let baseline = benchmark.baseline {
      switch benchmark.comparison {
      case .cost: comparison = "\(Format.ratio(ratio)) `\(baseline)`"
      case .throughput: comparison = "\(Format.ratio(ratio)) the throughput of `\(baseline)`"
      }
      if let target = benchmark.target, judgesTargets {
        switch target.metric {
        case .time:
          verdict = "\(target.text): **\(target.isMet(by: ratio) ? "met" : "missed")**"
        case .instructions:
          verdict = "\(target.text): judged by instruction-counts.sh"
        case .allocations:
          verdict = "\(target.text): judged under Allocations"
        case .memory:
          verdict = "\(target.text): judged in its memory section"
        }
      }
    }
    let cells = [
      benchmark.title.replacingBars, "`\(benchmark.id)`", Format.nanoseconds(measurement.median),
      Format.nanoseconds(measurement.minimum), comparison, verdict,
    ]
    return "| " + cells.joined(separator: " | ") + " |"
  }

  /// Throughput, for the cases where it is the point.
  private func note(for measurement: Measurement) -> String? {
    let benchmark = measurement.benchmark
    let perSecond = Format.grouped(Int((1e9 / measurement.median).rounded()))
    if benchmark.group == Group.perRequest {
      return "- `\(benchmark.id)`: \(perSecond) requests/s"
    }
    if benchmark.group == Group.scaling {
      return "- `\(benchmark.id)`: \(perSecond) reads/s"
    }
    return nil
  }
}

extension String {
  /// The text with `|` escaped for a Markdown table cell.
  var replacingBars: String {
    split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|")
  }
}
