/// The peak memory of this process.
enum PeakMemory {
  /// The label of the line a run with `--iterations` ends with, read by the parent process.
  static let label = "Peak resident memory (VmHWM), bytes:"

  /// The high-water mark of this process's resident memory, where the system reports it.
  ///
  /// Linux keeps it per address space (`VmHWM` in `/proc/self/status`), so a child started
  /// by this tool reports its own peak, not its parent's. (`getrusage` would not: a spawned
  /// child inherits the parent's peak in `ru_maxrss`.)
  static func residentBytes() -> Int? {
    TextFile.number(after: "VmHWM:", in: "/proc/self/status").map { $0 * 1024 }
  }
}
