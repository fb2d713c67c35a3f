/// Number formatting for the report and the chart, without Foundation.
enum Format {
  /// `value` with `decimals` digits after the point.
  static func fixed(_ value: Double, _ decimals: Int) -> String {
    guard value.isFinite else { return "–" }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    let whole = grouped(Int(scaled / scale))
    let sign = value < 0 && scaled > 0 ? "-" : ""
    guard decimals > 0 else { return sign + whole }
    let fraction = String(Int(scaled.truncatingRemainder(dividingBy: scale)))
    return sign + whole + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
  }

  /// An integer with thousands separators: 1,234,567.
  static func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var result = ""
    for (offset, digit) in digits.enumerated() {
      if offset > 0 && (digits.count - offset).isMultiple(of: 3) { result += "," }
      result.append(digit)
    }
    return (value < 0 ? "-" : "") + result
  }

  /// Nanoseconds with a precision that suits their size.
  static func nanoseconds(_ value: Double) -> String {
    value < 100 ? fixed(value, 1) : fixed(value, 0)
  }

  /// A ratio such as `1.36×`.
  static func ratio(_ value: Double) -> String { fixed(value, 2) + "×" }

  /// A byte count such as `12.3 MB` (decimal units).
  static func bytes(_ value: Int) -> String {
    let magnitude = Double(value)
    if abs(magnitude) >= 1_000_000 { return fixed(magnitude / 1_000_000, 1) + " MB" }
    if abs(magnitude) >= 1_000 { return fixed(magnitude / 1_000, 1) + " kB" }
    return "\(value) B"
  }

  /// A byte count in binary units, such as `12.3 MiB`.
  static func mebibytes(_ value: Int) -> String {
    fixed(Double(value) / 1_048_576, 1) + " MiB"
  }
}
