/// Parses a JSON object whose values are all strings, such as `{"tenant":"acme"}`.
///
/// The example's responses are such objects. Returns `nil` for anything else, so a garbled or
/// mixed-up response never passes for a correct one.
func parseFlatJSONObject(_ text: String) -> [String: String]? {
  var scalars = Substring(text).unicodeScalars[...]

  func take(_ expected: Unicode.Scalar) -> Bool {
    guard scalars.first == expected else { return false }
    scalars.removeFirst()
    return true
  }

  func string() -> String? {
    guard take("\"") else { return nil }
    var result = String.UnicodeScalarView()
    while let scalar = scalars.popFirst() {
      switch scalar {
      case "\"":
        return String(result)
      case "\\":
        guard let escaped = scalars.popFirst() else { return nil }
        switch escaped {
        case "\"", "\\", "/": result.append(escaped)
        case "n": result.append("\n")
        case "r": result.append("\r")
        case "t": result.append("\t")
        case "u":
          let hex = String(String.UnicodeScalarView(scalars.prefix(4)))
          guard hex.count == 4, let value = UInt32(hex, radix: 16),
            let decoded = Unicode.Scalar(value)
          else { return nil }
          scalars.removeFirst(4)
          result.append(decoded)
        default: return nil
        }
      default:
        result.append(scalar)
      }
    }
    return nil
  }

  guard take("{") else { return nil }
  var object: [String: String] = [:]
  if take("}") { return scalars.isEmpty ? object : nil }
  repeat {
    guard let key = string(), take(":"), let value = string(), object[key] == nil else {
      return nil
    }
    object[key] = value
  } while take(",")
  return take("}") && scalars.isEmpty ? object : nil
}
