#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Counts the heap allocations of one operation of each case, and prints them.
///
/// Every `malloc`, `calloc`, `realloc` and `new` is counted by valgrind's memcheck, which
/// replaces the allocator: a child process runs the case with `--iterations`, twice, with two
/// operation counts, and the difference between the two totals, divided by the difference
/// between the operation counts, is the allocations of one operation. Start-up, and work done
/// once per run (the scope a read case reads in, starting threads), cancel out.
///
/// Counting in-process is not reliable: `mallinfo2` reports bytes in use, so an allocation
/// freed within the operation leaves no trace, and the Swift runtime's allocation hook turns
/// on an instrumentation mode for retain and release that this runtime does not survive.
enum AllocationReport {
  /// The two operation counts, for cases with and without a fixed size.
  static let counts = (small: 1_000, large: 5_000)
  static let fixedSizeCounts = (small: 100, large: 500)

  /// Counts and prints the allocations of `benchmarks` (scaling cases excepted: they repeat
  /// the read cases on threads). Returns whether every count succeeded; without valgrind,
  /// nothing is counted and that is not a failure.
  static func print(_ benchmarks: [Benchmark]) -> Bool {
    Swift.print("\n## Allocations\n")
    guard ChildProcess.run("valgrind", ["--version"]) else {
      Swift.print("valgrind is not installed: allocations not counted.")
      return true
    }
    Swift.print(
      """
      Heap allocations per operation, counted by valgrind (memcheck) in child processes. \
      "Own" is the case's count minus its baseline's: what the library adds.

      | case | id | allocations/op | baseline's | own | target |
      |---|---|---:|---:|---:|---|
      """
    )
    return withExecutableForValgrind { executable in
      printRows(benchmarks, executable: executable)
    } ?? false
  }

  private static func printRows(_ benchmarks: [Benchmark], executable: String) -> Bool {
    var counted: [String: Double] = [:]
    var succeeded = true
    for benchmark in benchmarks where benchmark.group != Group.scaling {
      Console.status("counting allocations of \(benchmark.id)")
      let count = allocationsPerOperation(benchmark, executable: executable)
      counted[benchmark.id] = count
      if count == nil { succeeded = false }
      let baseline = benchmark.baseline.flatMap { counted[$0] }
      let own = count.map { $0 - (baseline ?? 0) }
      var verdict = ""
      if let limit = benchmark.allocationLimit, let own {
        verdict = "at most \(limit) own: **\(own <= Double(limit) ? "met" : "missed")**"
      }
      let cells = [
        benchmark.title.replacingBars, "`\(benchmark.id)`",
        count.map { Format.fixed($0, 2) } ?? "failed", baseline.map { Format.fixed($0, 2) } ?? "",
        baseline == nil ? "" : own.map { Format.fixed($0, 2) } ?? "", verdict,
      ]
      Swift.print("| " + cells.joined(separator: " | ") + " |")
    }
    return succeeded
  }

  /// Runs `body` with the path of this executable as valgrind can read it, or `nil` if no
  /// temporary copy could be made.
  ///
  /// valgrind 3.19 gives up on the DWARF 5 debug information of the library's C target, so on
  /// Linux it runs a copy of this executable stripped of debug information (the symbols stay).
  /// Where `strip` is missing or fails, the executable itself is used.
  static func withExecutableForValgrind<R>(_ body: (String) -> R) -> R? {
    #if os(Linux)
      return TextFile.withTemporaryFile { copy in
        let stripped =
          ChildProcess.run("strip", ["-g", ChildProcess.executable, "-o", copy])
          && chmod(copy, 0o700) == 0
        return body(stripped ? copy : ChildProcess.executable)
      }
    #else
      return body(ChildProcess.executable)
    #endif
  }

  /// Heap allocations per operation of `benchmark`, run from `executable`, or `nil` if
  /// valgrind failed.
  static func allocationsPerOperation(_ benchmark: Benchmark, executable: String) -> Double? {
    let (small, large) = benchmark.fixedIterations == nil ? counts : fixedSizeCounts
    guard let few = totalAllocations(benchmark, small, executable),
      let many = totalAllocations(benchmark, large, executable)
    else { return nil }
    return Double(many - few) / Double(large - small)
  }

  /// The allocations of a whole process running `iterations` operations of `benchmark`.
  private static func totalAllocations(
    _ benchmark: Benchmark,
    _ iterations: Int,
    _ executable: String
  ) -> Int? {
    TextFile.withTemporaryFile { log in
      let arguments = [
        "--tool=memcheck", "--leak-check=no", "--log-file=\(log)", executable,
        "--filter", benchmark.id, "--iterations", String(iterations),
      ]
      guard ChildProcess.run("valgrind", arguments) else { return nil }
      // memcheck's summary: "total heap usage: 1,234 allocs, 1,230 frees, 56,789 bytes".
      return TextFile.number(after: "total heap usage:", in: log)
    } ?? nil
  }
}
