#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Threads of their own, for tests whose threads must all run at once (GCD and the cooperative
// pool run as many as there are cores).

/// Starts a POSIX thread that runs `body`.
func startThread(_ body: @escaping @Sendable () -> Void) -> pthread_t {
  final class Work: Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }
  let argument = Unmanaged.passRetained(Work(body)).toOpaque()
  #if canImport(Glibc)
    var thread = pthread_t()
  #elseif canImport(Darwin)
    var thread: pthread_t?
  #endif
  let status = pthread_create(
    &thread,
    nil,
    { argument in
      // Optional on Linux, not on Apple platforms: this line accepts either.
      let argument: UnsafeMutableRawPointer? = argument
      Unmanaged<Work>.fromOpaque(argument!).takeRetainedValue().body()
      return nil
    },
    argument
  )
  precondition(status == 0, "pthread_create failed: \(status)")
  #if canImport(Glibc)
    return thread
  #elseif canImport(Darwin)
    return thread!
  #endif
}
