/// One client connection: it serves the client's requests one after another, until the client
/// closes it, asks to close it, or stays silent too long.
struct Connection: Sendable {
  let socket: Socket
  /// The connection's number, counted from 1; server-made request IDs start with it.
  let number: Int
  let app: WhoAmIApp
  let poller: Poller

  /// How long the connection waits for a request, or for the client to take a response.
  static let idleTimeoutMilliseconds = 10_000
  /// The longest request head accepted.
  static let maximumHeadSize = 16 * 1024

  private struct Closed: Error {}

  /// Serves requests until the connection ends or the task is cancelled; errors end it quietly.
  func serve() async {
    var received: [UInt8] = []
    var served = 0
    do {
      while !Task.isCancelled, let head = try await readHead(&received) {
        served += 1
        let (response, keepAlive) = await respond(to: head, requestID: "\(number)-\(served)")
        try await write(response.serialized(keepAlive: keepAlive))
        guard keepAlive else { return }
      }
    } catch {
      // A timeout, a reset, or the server stopping: drop the connection.
    }
  }

  private func respond(
    to head: [UInt8],
    requestID: String
  ) async -> (HTTPResponse, keepAlive: Bool) {
    guard var request = HTTPRequest(head: head) else {
      return (.error(400, "Bad Request", message: "malformed request"), false)
    }
    guard !request.hasBody else {
      return (.error(400, "Bad Request", message: "request bodies are not supported"), false)
    }
    request.id = request.header("X-Request-ID") ?? requestID
    return (await app.respond(to: request), request.keepsConnectionAlive)
  }

  /// Returns the next request head, without its blank line; `nil` if the client closed the
  /// connection between requests. Bytes after the head stay in `received`.
  private func readHead(_ received: inout [UInt8]) async throws -> [UInt8]? {
    while true {
      if let end = HTTPRequest.endOfHead(in: received) {
        let head = Array(received[..<(end - HTTPRequest.headTerminator.count)])
        received.removeFirst(end)
        return head
      }
      guard received.count <= Self.maximumHeadSize else { throw Closed() }
      switch try socket.readSome(into: &received) {
      case 0?:
        guard received.isEmpty else { throw Closed() }  // closed in the middle of a request
        return nil
      case nil:
        try await poller.wait(
          for: .readable,
          on: socket.descriptor,
          timeoutMilliseconds: Self.idleTimeoutMilliseconds
        )
      case _?:
        continue
      }
    }
  }

  private func write(_ bytes: [UInt8]) async throws {
    try await socket.writeAll(
      bytes,
      waitingWith: poller,
      timeoutMilliseconds: Self.idleTimeoutMilliseconds
    )
  }
}
