#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Threads of their own, for tests whose threads must all run at once (GCD and the cooperative
// pool run as many as there are cores).

/// Starts a POSIX thread that runs `body`, with a stack of `stackBytes` if given.
func startThread(
  stackBytes: Int? = nil,
  _ body: @escaping @Sendable () -> Void
) -> pthread_t {
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
  var attributes = pthread_attr_t()
  pthread_attr_init(&attributes)
  defer { pthread_attr_destroy(&attributes) }
  if let stackBytes { pthread_attr_setstacksize(&attributes, stackBytes) }
  let status = pthread_create(
    &thread,
    &attributes,
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
