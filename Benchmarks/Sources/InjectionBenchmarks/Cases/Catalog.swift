/// Every case, in report order, and the choice of which to run.
enum Catalog {
  static var all: [Benchmark] {
    BaselineCases.all + ReadCases.all + ShapeCases.all + ScopeCases.all + ChainCases.all
      + ScalingCases.all + RequestCases.all + PerRequestCases.all + GlobalMemoryCases.all
  }

  /// The cases `filters` select (all of them without filters). Unless `withBaselines` is
  /// false, the baselines they are compared with are added, so every ratio can be computed.
  static func select(_ filters: [String], withBaselines: Bool) -> [Benchmark] {
    let cases = all
    guard !filters.isEmpty else { return cases }
    var chosen = Set<String>()
    for filter in filters {
      if cases.contains(where: { $0.id == filter }) {
        chosen.insert(filter)
      } else {
        chosen.formUnion(cases.map(\.id).filter { $0.contains(filter) })
      }
    }
    if withBaselines { chosen = closure(of: chosen, in: cases) }
    return cases.filter { chosen.contains($0.id) }
  }

  /// `ids` and, transitively, the baselines they name.
  private static func closure(of ids: Set<String>, in cases: [Benchmark]) -> Set<String> {
    var result = ids
    var pending = Array(ids)
    while let id = pending.popLast() {
      guard let baseline = cases.first(where: { $0.id == id })?.baseline else { continue }
      if result.insert(baseline).inserted { pending.append(baseline) }
    }
    return result
  }
}
