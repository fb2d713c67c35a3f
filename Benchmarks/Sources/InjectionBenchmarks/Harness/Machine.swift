#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The machine and toolchain a run happens on, for the report.
enum Machine {
  /// The current date and time, in UTC.
  static var date: String {
    var now = time(nil)
    var parts = tm()
    gmtime_r(&now, &parts)
    var buffer = [CChar](repeating: 0, count: 64)
    let length = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M UTC", &parts)
    return TextFile.string(from: buffer[..<length])
  }

  /// Online processors, as `nproc` reports them.
  static var processorCount: Int { sysconf(Int32(_SC_NPROCESSORS_ONLN)) }

  /// The hardware name and kernel, as `uname -m` and `uname -sr` report them.
  static var system: (machine: String, kernel: String) {
    var names = utsname()
    uname(&names)
    func text<T>(_ field: T) -> String {
      withUnsafeBytes(of: field) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
    }
    return (text(names.machine), "\(text(names.sysname)) \(text(names.release))")
  }

  /// The first `model name` in `/proc/cpuinfo`, where there is one.
  static var processorModel: String {
    let line = TextFile.lines(at: "/proc/cpuinfo")?.first { $0.hasPrefix("model name") }
    guard let line, let colon = line.firstIndex(of: ":") else { return "unknown" }
    return line[line.index(after: colon)...].trimmingSpaces
  }

  /// The compiler that built this binary, to the precision `#if compiler` allows.
  static var compiler: String {
    #if compiler(>=6.4)
      "Swift 6.4 or later"
    #elseif compiler(>=6.3)
      "Swift 6.3"
    #elseif compiler(>=6.2)
      "Swift 6.2"
    #else
      "Swift 6.0 or 6.1"
    #endif
  }

  /// The build configuration of this binary.
  static var configuration: String {
    #if DEBUG
      "debug build (times are meaningless: use -c release)"
    #else
      "release build"
    #endif
  }

  /// The 1-, 5- and 15-minute load averages: other work on the machine disturbs timings.
  static var loadAverage: String {
    var loads = [0.0, 0.0, 0.0]
    guard getloadavg(&loads, 3) == 3 else { return "unknown" }
    return loads.map { Format.fixed($0, 2) }.joined(separator: ", ")
  }

  /// One line per fact, for the top of the report of a run that started at `startDate`.
  static func description(startDate: String) -> String {
    let (machine, kernel) = system
    return """
      Date:      \(startDate)
      Machine:   \(processorModel), \(processorCount) processors (nproc), \(machine), \(kernel)
      Toolchain: \(compiler), \(configuration)
      Load:      \(loadAverage) (1, 5, 15 minutes) at the start
      """
  }
}

extension StringProtocol {
  /// The text without leading and trailing spaces, tabs and newlines.
  var trimmingSpaces: String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" }
    guard let first = firstIndex(where: { !isSpace($0) }) else { return "" }
    let last = lastIndex(where: { !isSpace($0) })!
    return String(self[first...last])
  }
}
