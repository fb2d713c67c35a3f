// Injection's benchmarks: `swift run -c release InjectionBenchmarks [--help]`, from Benchmarks/.
//
// `main` is synchronous on purpose: valgrind cannot run an async `main` here, and callgrind's
// instruction counts (Benchmarks/instruction-counts.sh) need valgrind.
import BenchmarkKeys
import BenchmarkShapes
import BenchmarkSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The struct of the shape matrix that lives in a global `let` of `main.swift` (see `ShapeCases`).
let globalShape = ShapeStruct()

/// Reads `globalShape` through `reader`, `iterations` times.
func readGlobalShape(_ reader: ShapeCases.Reader, _ iterations: Int) {
  switch reader {
  case .injected: for _ in 0..<iterations { blackHole(globalShape.service.call()) }
  case .concrete: for _ in 0..<iterations { blackHole(globalShape.concreteService.call()) }
  case .keyed: for _ in 0..<iterations { blackHole(globalShape.keyedService.call()) }
  case .seed: for _ in 0..<iterations { blackHole(globalShape.seedService.call()) }
  case .subscript: for _ in 0..<iterations { blackHole(globalShape.viaSubscript.call()) }
  case .raw: for _ in 0..<iterations { blackHole(globalShape.rawRead.call()) }
  case .isolated: fatalError("only the main-actor shape has a main-actor accessor")
  }
}

let options = Options.parse(Array(CommandLine.arguments.dropFirst()))
let startDate = Machine.date

if options.list {
  // Tab-separated: id, title, baseline and the bound of a target stated in instructions (the
  // last two may be empty), as Benchmarks/instruction-counts.sh reads them.
  for benchmark in Catalog.all {
    let target = benchmark.target.flatMap { $0.metric == .instructions ? $0.boundText : nil }
    print(
      [benchmark.id, benchmark.title, benchmark.baseline ?? "", target ?? ""]
        .joined(separator: "\t")
    )
  }
  exit(0)
}

let benchmarks = Catalog.select(options.filters, withBaselines: options.iterations == nil)
guard !benchmarks.isEmpty else {
  print("InjectionBenchmarks: no case matches \(options.filters); see --list")
  exit(2)
}

print("# Injection benchmarks\n")
print(Machine.description(startDate: startDate))
if let iterations = options.iterations {
  print("Method:    exactly \(iterations) operations per case, once (no warm-up, no calibration)")
} else if options.smoke {
  print(
    "Method:    smoke pass: \(Runner.smokeIterations) operations per case, once; not a measurement"
  )
} else {
  print(
    "Method:    warm-up, calibration to \(options.milliseconds) ms per measurement, "
      + "\(options.repetitions) measurements per case round-robin; median and minimum"
  )
}

// Cases that run only in child processes are timed only when asked for with `--iterations`.
let timed = benchmarks.filter { $0.phase != .childProcess || options.iterations != nil }
let measurements = Runner(options: options).measure(timed)
print("Load:      \(Machine.loadAverage) (1, 5, 15 minutes) at the end")
let judgesTargets = options.iterations == nil && !options.smoke
Report(measurements: measurements, judgesTargets: judgesTargets).print(groups: Group.all)

if options.iterations != nil, let bytes = PeakMemory.residentBytes() {
  print("\n\(PeakMemory.label) \(bytes)")
}

// Child processes that fail mean a case that no longer runs: the tool then exits with 1.
var childrenSucceeded = true
if options.iterations == nil && !options.timingOnly {
  // Counting under valgrind takes seconds per case: a smoke pass only checks the tool runs.
  if !options.smoke && !timed.isEmpty {
    childrenSucceeded = AllocationReport.print(timed) && childrenSucceeded
  }
  let requests = options.smoke ? Runner.smokeIterations : PerRequestCases.requests
  let simulations = benchmarks.filter { $0.group == Group.perRequest }
  childrenSucceeded = PeakMemoryReport.print(simulations, requests: requests) && childrenSucceeded
  let keys = options.smoke ? Runner.smokeIterations : GlobalMemoryCases.keys
  let globalCases = benchmarks.filter { $0.group == Group.globalMemory }
  childrenSucceeded =
    GlobalMemoryReport.print(
      globalCases,
      keys: keys,
      judgesTargets: !options.smoke
    ) && childrenSucceeded
}

if let path = options.chartPath {
  guard TextFile.write(Chart(comparing: measurements, date: startDate).svg, to: path) else {
    print("InjectionBenchmarks: cannot write \(path)")
    exit(1)
  }
  print("\nChart written to \(path)")
}

if !childrenSucceeded {
  print("\nInjectionBenchmarks: a child process failed (see the tables above)")
  exit(1)
}
