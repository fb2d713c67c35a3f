#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The command line of `InjectionBenchmarks`.
struct Options {
  /// Case ids to run: a pattern equal to an id selects that case; any other pattern selects
  /// every case whose id contains it. Empty: every case.
  var filters: [String] = []
  /// Run exactly this many operations per case, once, without warm-up or calibration.
  var iterations: Int?
  /// Measurements per case, taken round-robin across cases.
  var repetitions = 15
  /// The time one measurement of a case should take, in milliseconds.
  var milliseconds = 60
  /// Few iterations, one repetition: checks that every case still runs.
  var smoke = false
  /// Where to write the SVG chart, if anywhere.
  var chartPath: String?
  /// Skip the child processes that count allocations and measure peak memory.
  var timingOnly = false
  /// Print the case ids (with titles, baselines and instruction targets) and exit.
  var list = false

  static let usage = """
    Usage: InjectionBenchmarks [options]

      --filter PATTERNS    Comma-separated case ids. A pattern equal to an id selects that
                           case; any other selects every id containing it. Without
                           --iterations, the baselines of the selected cases run too.
      --iterations N       Run exactly N operations per case, once: no warm-up, no
                           calibration, no allocation count. For callgrind.
      --repetitions R      Measurements per case, round-robin across cases (default 15).
      --time MS            Target time of one measurement, in milliseconds (default 60).
      --smoke              A quick pass that only checks every case runs (a few seconds).
      --chart PATH         Write an SVG chart of the results to PATH.
      --timing-only        Skip counting allocations (valgrind) and peak memory.
      --list               Print the case ids, titles, baselines and targets stated in
                           instructions, tab-separated, and exit.
      --help               Print this help.
    """

  /// Parses `arguments` (without the program name); exits with a message on an error.
  static func parse(_ arguments: [String]) -> Options {
    var options = Options()
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "--filter":
        options.filters = value(after: argument, in: &remaining)
          .split(separator: ",").map(String.init)
      case "--iterations": options.iterations = positive(after: argument, in: &remaining)
      case "--repetitions": options.repetitions = positive(after: argument, in: &remaining)
      case "--time": options.milliseconds = positive(after: argument, in: &remaining)
      case "--smoke": options.smoke = true
      case "--chart": options.chartPath = value(after: argument, in: &remaining)
      case "--timing-only": options.timingOnly = true
      case "--list": options.list = true
      case "--help", "-h":
        print(usage)
        exit(0)
      default: fail("unknown option \(argument)")
      }
    }
    return options
  }

  private static func value(after option: String, in arguments: inout ArraySlice<String>) -> String
  {
    guard let value = arguments.popFirst() else { fail("\(option) needs a value") }
    return value
  }

  private static func positive(after option: String, in arguments: inout ArraySlice<String>) -> Int
  {
    guard let number = Int(value(after: option, in: &arguments)), number > 0 else {
      fail("\(option) needs a positive whole number")
    }
    return number
  }

  private static func fail(_ message: String) -> Never {
    print("InjectionBenchmarks: \(message)\n\n\(usage)")
    exit(2)
  }
}
