@testable import ServerExample

/// A tiny HTTP/1.1 client for tests: one loopback connection over the example's non-blocking
/// sockets, requests sent one after another, every wait bounded by a timeout.
struct HTTPTestClient: Sendable {
  /// A response: the status code, the header fields (names lowercased) and the body.
  struct Response: Sendable {
    let status: Int
    let headers: [String: String]
    let body: String
  }

  /// Why a request failed.
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// How long any single wait on the socket may take before the request fails.
  static let timeoutMilliseconds = 15_000

  private let socket: Socket
  private let poller: Poller
  /// Bytes received but not consumed yet.
  private var received: [UInt8] = []

  /// Connects to 127.0.0.1 at `port`.
  static func connect(to port: UInt16, poller: Poller) async throws -> HTTPTestClient {
    let socket = try Socket.makeClient(connectingTo: port)
    try await poller.wait(
      for: .writable,
      on: socket.descriptor,
      timeoutMilliseconds: timeoutMilliseconds
    )
    if let error = socket.connectionError() { throw error }
    return HTTPTestClient(socket: socket, poller: poller)
  }

  private init(socket: Socket, poller: Poller) {
    self.socket = socket
    self.poller = poller
  }

  /// Sends raw request bytes.
  func send(_ text: String) async throws {
    try await socket.writeAll(
      Array(text.utf8),
      waitingWith: poller,
      timeoutMilliseconds: Self.timeoutMilliseconds
    )
  }

  /// Sends `GET path` with `headers` and returns the response.
  mutating func get(_ path: String, headers: [(String, String)]) async throws -> Response {
    let fields = headers.map { "\($0.0): \($0.1)\r\n" }.joined()
    try await send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(fields)\r\n")
    return try await receiveResponse()
  }

  /// Reads one response, which must carry a `Content-Length`.
  mutating func receiveResponse() async throws -> Response {
    var headEnd: Int?
    while headEnd == nil {
      headEnd = Self.blankLineEnd(in: received)
      if headEnd == nil { try await receiveMore() }
    }
    let head = String(decoding: received[..<headEnd!], as: UTF8.self)
    received.removeFirst(headEnd!)

    var lines = head.split(separator: "\r\n" as Character)
    let statusLine = lines.removeFirst().split(separator: " " as Character)
    guard statusLine.count >= 2, statusLine[0] == "HTTP/1.1", let status = Int(statusLine[1]) else {
      throw Failure(description: "bad status line in \(head)")
    }
    var headers: [String: String] = [:]
    for line in lines {
      guard let colon = line.firstIndex(of: ":") else { throw Failure(description: "bad header") }
      let value = line[line.index(after: colon)...].drop { $0 == " " }
      headers[line[..<colon].lowercased()] = String(value)
    }
    guard let length = headers["content-length"].flatMap({ Int($0) }) else {
      throw Failure(description: "no Content-Length in \(head)")
    }
    while received.count < length { try await receiveMore() }
    let body = String(decoding: received[..<length], as: UTF8.self)
    received.removeFirst(length)
    return Response(status: status, headers: headers, body: body)
  }

  /// Returns `true` once the server has closed the connection and no bytes are left unread.
  mutating func isClosedByServer() async throws -> Bool {
    while true {
      switch try socket.readSome(into: &received) {
      case 0?: return received.isEmpty
      case nil:
        try await poller.wait(
          for: .readable,
          on: socket.descriptor,
          timeoutMilliseconds: Self.timeoutMilliseconds
        )
      case _?: return false
      }
    }
  }

  private mutating func receiveMore() async throws {
    while true {
      switch try socket.readSome(into: &received) {
      case 0?: throw Failure(description: "the server closed the connection")
      case nil:
        try await poller.wait(
          for: .readable,
          on: socket.descriptor,
          timeoutMilliseconds: Self.timeoutMilliseconds
        )
      case _?: return
      }
    }
  }

  /// The position just past the first "\r\n\r\n" in `bytes`, if there is one.
  private static func blankLineEnd(in bytes: [UInt8]) -> Int? {
    let blankLine: [UInt8] = [13, 10, 13, 10]
    var index = 0
    while index + 4 <= bytes.count {
      if bytes[index..<index + 4].elementsEqual(blankLine) { return index + 4 }
      index += 1
    }
    return nil
  }
}
