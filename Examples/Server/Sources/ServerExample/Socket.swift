#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An error from a POSIX call, with the call's name and `errno`.
public struct SocketError: Error, CustomStringConvertible {
  /// The POSIX call that failed, such as `bind`.
  public let call: String
  /// The `errno` value it set.
  public let code: Int32

  /// The call and the system's description of the error, such as `bind: Address already in use`.
  public var description: String { "\(call): \(String(cString: strerror(code)))" }

  init(_ call: String, code: Int32 = errno) {
    self.call = call
    self.code = code
  }
}

/// A non-blocking TCP socket on the loopback interface; the descriptor closes with the object.
///
/// Calls that would block return `nil` instead: the caller then waits with a ``Poller`` and
/// tries again, so no thread ever sleeps in `accept`, `read` or `write`.
final class Socket: Sendable {
  let descriptor: Int32

  private init(adopting descriptor: Int32) throws(SocketError) {
    self.descriptor = descriptor
    let flags = fcntl(descriptor, F_GETFL)
    guard flags >= 0, fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0 else {
      throw SocketError("fcntl")
    }
    #if canImport(Darwin)
      // Linux passes MSG_NOSIGNAL to each send instead (see `writeSome`).
      try setOption(SOL_SOCKET, SO_NOSIGPIPE, to: 1)
    #endif
  }

  deinit { close(descriptor) }

  // MARK: - Creating sockets

  /// Opens a socket listening on 127.0.0.1 at `port`, or at a free port if `port` is 0.
  static func makeListener(port: UInt16, backlog: Int32 = 256) throws(SocketError) -> Socket {
    let socket = try Socket(adopting: try newDescriptor())
    try socket.setOption(SOL_SOCKET, SO_REUSEADDR, to: 1)
    var address = loopbackAddress(port: port)
    let status = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket.descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard status == 0 else { throw SocketError("bind") }
    guard listen(socket.descriptor, backlog) == 0 else { throw SocketError("listen") }
    return socket
  }

  /// Starts connecting to 127.0.0.1 at `port`. Wait until it is writable, then call
  /// ``connectionError()``.
  static func makeClient(connectingTo port: UInt16) throws(SocketError) -> Socket {
    let socket = try Socket(adopting: try newDescriptor())
    var address = loopbackAddress(port: port)
    let status = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket.descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard status == 0 || errno == EINPROGRESS else { throw SocketError("connect") }
    try socket.sendWithoutDelay()
    return socket
  }

  private static func newDescriptor() throws(SocketError) -> Int32 {
    #if canImport(Glibc)
      let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #elseif canImport(Darwin)
      let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw SocketError("socket") }
    return descriptor
  }

  private static func loopbackAddress(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    #if canImport(Darwin)
      address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
    #endif
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)  // 127.0.0.1
    return address
  }

  /// Turns off Nagle's algorithm: requests and responses are single small writes, sent at once.
  private func sendWithoutDelay() throws(SocketError) {
    try setOption(Int32(IPPROTO_TCP), TCP_NODELAY, to: 1)
  }

  private func setOption(_ level: Int32, _ option: Int32, to value: Int32) throws(SocketError) {
    var value = value
    let size = socklen_t(MemoryLayout<Int32>.size)
    guard setsockopt(descriptor, level, option, &value, size) == 0 else {
      throw SocketError("setsockopt")
    }
  }

  // MARK: - Using sockets

  /// The port the socket is bound to: the one the system chose, for a listener on port 0.
  func localPort() throws(SocketError) -> UInt16 {
    var address = sockaddr_in()
    var size = socklen_t(MemoryLayout<sockaddr_in>.size)
    let status = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        getsockname(descriptor, $0, &size)
      }
    }
    guard status == 0 else { throw SocketError("getsockname") }
    return UInt16(bigEndian: address.sin_port)
  }

  /// The outcome of a non-blocking connect, once the socket is writable: `nil` if it succeeded.
  func connectionError() -> SocketError? {
    var code: Int32 = 0
    var size = socklen_t(MemoryLayout<Int32>.size)
    guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &code, &size) == 0 else {
      return SocketError("getsockopt")
    }
    return code == 0 ? nil : SocketError("connect", code: code)
  }

  /// Accepts a pending connection, or returns `nil` if none is waiting.
  func acceptClient() throws(SocketError) -> Socket? {
    let client = accept(descriptor, nil, nil)
    if client >= 0 {
      let socket = try Socket(adopting: client)
      try socket.sendWithoutDelay()
      return socket
    }
    if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR || errno == ECONNABORTED {
      return nil
    }
    throw SocketError("accept")
  }

  /// Appends the bytes that have arrived to `buffer` and returns their count: 0 at the end of
  /// the stream, `nil` if nothing has arrived yet.
  func readSome(into buffer: inout [UInt8]) throws(SocketError) -> Int? {
    var chunk = [UInt8](repeating: 0, count: 4096)
    let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    if count >= 0 {
      buffer.append(contentsOf: chunk[..<count])
      return count
    }
    if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return nil }
    throw SocketError("read")
  }

  /// Writes as many of `bytes` as the socket takes now and returns their count: `nil` if it
  /// takes none yet.
  func writeSome(_ bytes: ArraySlice<UInt8>) throws(SocketError) -> Int? {
    #if canImport(Glibc)
      let flags = Int32(MSG_NOSIGNAL)  // a closed peer gives EPIPE, not a SIGPIPE
    #elseif canImport(Darwin)
      let flags: Int32 = 0  // SO_NOSIGPIPE is set on the socket
    #endif
    let count = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, flags) }
    if count >= 0 { return count }
    if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return nil }
    throw SocketError("send")
  }

  /// Writes all of `bytes`, waiting with `poller` whenever the socket takes no more yet.
  ///
  /// - Throws: A `SocketError` if the write fails, or what `poller` throws while waiting.
  func writeAll(
    _ bytes: [UInt8],
    waitingWith poller: Poller,
    timeoutMilliseconds: Int?
  ) async throws {
    var sent = 0
    while sent < bytes.count {
      if let count = try writeSome(bytes[sent...]) {
        sent += count
      } else {
        try await poller.wait(
          for: .writable,
          on: descriptor,
          timeoutMilliseconds: timeoutMilliseconds
        )
      }
    }
  }
}
