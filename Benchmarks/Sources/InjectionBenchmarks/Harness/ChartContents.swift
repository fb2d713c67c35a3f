/// Which measurements the chart shows, next to the peers' figures.
extension Chart {
  /// The per-operation cases worth comparing with the peers, in chart order.
  static let libraryCases = [
    "read.default", "read.default.injected", "read.overridden", "read.overridden.injected",
    "read.overridden.64-overrides", "read.overridden.10-scopes", "read.default.other-key-global",
    "scope.enter.1-override", "scope.enter.8-overrides", "scope.snapshot",
  ]
  static let baselineCases = [
    BaselineID.staticLet, BaselineID.taskLocal, BaselineID.taskLocalBound, BaselineID.withValue,
  ]

  /// A chart of `measurements` (those of the cases above that ran) and the peers' figures.
  init(comparing measurements: [Measurement], date: String) {
    func bars(_ ids: [String], _ kind: Kind) -> [Bar] {
      ids.compactMap { id in
        measurements.first { $0.benchmark.id == id }.map {
          Bar(label: $0.benchmark.title, nanoseconds: $0.median, kind: kind)
        }
      }
    }
    let peers = PeerFigures.all.map {
      Bar(label: $0.title, nanoseconds: $0.nanoseconds, kind: .peer)
    }
    self.init(
      title: "Resolving a dependency: nanoseconds per operation (median, log scale)",
      subtitle: "Injection and baselines measured on \(date) in one run; lower is better.",
      footnote: PeerFigures.source,
      bars: bars(Self.baselineCases, .baseline) + bars(Self.libraryCases, .library) + peers
    )
  }
}
