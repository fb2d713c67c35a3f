#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Small file helpers, without Foundation.
enum TextFile {
  /// The lines of the file at `path`, or `nil` if it cannot be read.
  static func lines(at path: String) -> [String]? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var lines: [String] = []
    var buffer = [CChar](repeating: 0, count: 4096)
    while fgets(&buffer, Int32(buffer.count), file) != nil {
      lines.append(string(from: buffer.prefix { $0 != 0 }))
    }
    return lines
  }

  /// Writes `text` to the file at `path`, replacing it; returns whether it succeeded.
  static func write(_ text: String, to path: String) -> Bool {
    guard let file = fopen(path, "w") else { return false }
    let written = fputs(text, file) >= 0
    return fclose(file) == 0 && written
  }

  /// The first number after `label` on the first line of `path` that contains `label`.
  static func number(after label: String, in path: String) -> Int? {
    for line in lines(at: path) ?? [] {
      guard let range = line.firstRange(of: label) else { continue }
      let rest = line[range.upperBound...].drop { $0 == " " || $0 == "\t" }
      let digits = rest.prefix { $0.isNumber || $0 == "," }.filter { $0 != "," }
      return Int(String(digits))
    }
    return nil
  }

  /// Runs `body` with the path of a new, empty temporary file, and removes the file after.
  static func withTemporaryFile<R>(_ body: (String) -> R) -> R? {
    var template = Array("/tmp/injection-benchmarks-XXXXXX".utf8CString)
    let descriptor = mkstemp(&template)
    guard descriptor >= 0 else { return nil }
    close(descriptor)
    let path = string(from: template.dropLast())
    defer { unlink(path) }
    return body(path)
  }

  /// Decodes C characters as UTF-8.
  static func string<C: Collection<CChar>>(from characters: C) -> String {
    String(decoding: characters.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
