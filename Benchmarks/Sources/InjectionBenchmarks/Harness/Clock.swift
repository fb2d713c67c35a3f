#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Nanoseconds from a monotonic clock.
enum Clock {
  static func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }

  /// Runs `body` and returns how long it took, in nanoseconds.
  static func measure(_ body: () -> Void) -> UInt64 {
    let start = now()
    body()
    return now() - start
  }
}
