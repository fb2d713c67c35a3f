#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An SVG chart: one horizontal bar per case, nanoseconds per operation on a log scale,
/// coloured by kind (baseline, this library, peer).
struct Chart {
  enum Kind: CaseIterable {
    case baseline, library, peer

    var colour: String {
      switch self {
      case .baseline: "#8c8c8c"
      case .library: "#2f6fb3"
      case .peer: "#d9822b"
      }
    }

    var legend: String {
      switch self {
      case .baseline: "baseline, this run"
      case .library: "Injection, this run"
      case .peer: "peer, quoted"
      }
    }
  }

  struct Bar {
    let label: String
    let nanoseconds: Double
    let kind: Kind
  }

  let title: String
  let subtitle: String
  let footnote: String
  let bars: [Bar]

  private let labelWidth = 400.0
  private let plotWidth = 460.0
  private let rowHeight = 22.0
  private let top = 84.0

  /// The SVG document.
  var svg: String {
    let bottom = top + Double(bars.count) * rowHeight
    var elements = [
      "<rect width='100%' height='100%' fill='white'/>",
      text(title, x: 12, y: 24, attributes: "font-size='16' font-weight='bold'"),
      text(subtitle, x: 12, y: 44, attributes: "fill='#555'"),
    ]
    elements += legend(y: 66)
    elements += axis(bottom: bottom)
    for (index, bar) in bars.enumerated() {
      elements += row(bar, y: top + Double(index) * rowHeight)
    }
    elements.append(text(footnote, x: 12, y: bottom + 44, attributes: "fill='#555'"))
    let width = Int(labelWidth + plotWidth + 100)
    let height = Int(bottom + 60)
    return """
      <svg xmlns='http://www.w3.org/2000/svg' width='\(width)' height='\(height)' \
      font-family='sans-serif' font-size='12'>
      \(elements.joined(separator: "\n"))
      </svg>

      """
  }

  /// The powers of ten the axis starts and ends at.
  private var decades: ClosedRange<Int> {
    let values = bars.map(\.nanoseconds).filter { $0 > 0 }
    let low = Int(log10(values.min() ?? 1).rounded(.down))
    let high = Int(log10(values.max() ?? 10).rounded(.up))
    return low...max(high, low + 1)
  }

  private func x(for value: Double) -> Double {
    let range = decades
    let fraction =
      (log10(value) - Double(range.lowerBound))
      / Double(range.upperBound - range.lowerBound)
    return labelWidth + fraction * plotWidth
  }

  private func row(_ bar: Bar, y: Double) -> [String] {
    let width = max(1, x(for: bar.nanoseconds) - labelWidth)
    return [
      text(bar.label, x: labelWidth - 8, y: y + 15, attributes: "text-anchor='end'"),
      "<rect x='\(labelWidth)' y='\(y + 4)' width='\(Format.fixed(width, 1))' "
        + "height='\(rowHeight - 8)' fill='\(bar.kind.colour)'/>",
      text(Format.nanoseconds(bar.nanoseconds) + " ns", x: labelWidth + width + 6, y: y + 15),
    ]
  }

  private func axis(bottom: Double) -> [String] {
    decades.flatMap { decade in
      let position = Format.fixed(x(for: pow(10, Double(decade))), 1)
      return [
        "<line x1='\(position)' y1='\(top - 4)' x2='\(position)' y2='\(bottom)' stroke='#ddd'/>",
        "<text x='\(position)' y='\(bottom + 16)' text-anchor='middle'>\(axisLabel(decade))</text>",
      ]
    }
  }

  private func legend(y: Double) -> [String] {
    Kind.allCases.enumerated().flatMap { index, kind in
      let x = 12 + Double(index) * 190
      return [
        "<rect x='\(x)' y='\(y - 10)' width='12' height='12' fill='\(kind.colour)'/>",
        text(kind.legend, x: x + 18, y: y),
      ]
    }
  }

  private func axisLabel(_ decade: Int) -> String {
    let units = ["ns", "µs", "ms", "s"]
    let unit = min(max(decade, 0) / 3, units.count - 1)
    return "\(Format.grouped(Int(pow(10, Double(decade - unit * 3))))) \(units[unit])"
  }

  private func text(_ content: String, x: Double, y: Double, attributes: String = "") -> String {
    "<text x='\(Format.fixed(x, 1))' y='\(Format.fixed(y, 1))' \(attributes)>"
      + "\(content.escapedForXML)</text>"
  }
}

extension String {
  /// The text with the characters XML reserves replaced by entities.
  var escapedForXML: String {
    var result = ""
    for character in self {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "'": result += "&apos;"
      case "\"": result += "&quot;"
      default: result.append(character)
      }
    }
    return result
  }
}
