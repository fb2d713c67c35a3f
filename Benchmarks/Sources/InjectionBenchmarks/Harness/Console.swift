#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Progress messages, on standard error so that standard output holds only the results.
enum Console {
  static func status(_ message: String) {
    var line = "… \(message)\n"
    line.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
  }
}
