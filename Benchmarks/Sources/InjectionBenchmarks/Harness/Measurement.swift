/// The measurements of one case.
struct Measurement {
  let benchmark: Benchmark
  /// Operations per measurement.
  let iterations: Int
  /// Nanoseconds per operation, one per repetition.
  var samples: [Double] = []

  var median: Double { Self.median(of: samples) }
  var minimum: Double { samples.min() ?? .nan }

  static func median(of values: [Double]) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count.isMultiple(of: 2)
      ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
  }
}
