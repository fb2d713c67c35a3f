/// An HTTP/1.x request head: the request line and the header fields.
///
/// The example serves `GET` requests, which carry no body, so the parser reads the head only.
///
/// ```swift
/// let request = HTTPRequest(
///   method: "GET",
///   path: "/whoami",
///   headers: [("X-Tenant", "acme")],
///   id: "req-1"
/// )
/// request.header("x-tenant")   // "acme"
/// ```
public struct HTTPRequest: Sendable {
  /// The method, such as `GET`.
  public var method: String
  /// The path of the target, without the query.
  public var path: String
  /// The protocol version: `HTTP/1.1` or `HTTP/1.0`.
  public var version: String
  /// The header fields in the order they arrived, names as sent.
  public var headers: [(name: String, value: String)]
  /// The request ID: the `X-Request-ID` header if the client sent one, otherwise one the server
  /// made up.
  public var id: String

  /// Creates a request, as the parser does; tests use it to call the app without sockets.
  ///
  /// - Parameters:
  ///   - method: The method, such as `GET`.
  ///   - path: The path, such as `/whoami`.
  ///   - version: The protocol version.
  ///   - headers: The header fields.
  ///   - id: The request ID.
  public init(
    method: String,
    path: String,
    version: String = "HTTP/1.1",
    headers: [(name: String, value: String)],
    id: String
  ) {
    self.method = method
    self.path = path
    self.version = version
    self.headers = headers
    self.id = id
  }

  /// Returns the value of the first header field called `name`, ignoring case.
  ///
  /// - Parameter name: The field name, such as `X-Tenant`.
  /// - Returns: The field's value, or `nil` if the request has no such field.
  public func header(_ name: String) -> String? {
    let name = name.lowercased()
    return headers.first { $0.name.lowercased() == name }?.value
  }

  /// Whether the client wants the connection kept open for another request.
  var keepsConnectionAlive: Bool {
    let connection = header("Connection")?.lowercased()
    return version == "HTTP/1.1" ? connection != "close" : connection == "keep-alive"
  }

  /// Whether the request announces a body, which this server does not read.
  var hasBody: Bool {
    header("Transfer-Encoding") != nil || (header("Content-Length").map { $0 != "0" } ?? false)
  }
}

// MARK: - Parsing

extension HTTPRequest {
  /// Parses a request head: the bytes before the blank line, without it.
  ///
  /// Returns `nil` for anything malformed. The request ID is left empty for the caller to set.
  init?(head: [UInt8]) {
    let lines = String(decoding: head, as: UTF8.self)
      .split(separator: "\r\n" as Character, omittingEmptySubsequences: false)
    let requestLine = lines[0].split(separator: " " as Character, omittingEmptySubsequences: false)
    guard requestLine.count == 3, !requestLine[0].isEmpty, requestLine[1].first == "/",
      requestLine[2] == "HTTP/1.1" || requestLine[2] == "HTTP/1.0"
    else { return nil }
    var headers: [(name: String, value: String)] = []
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { return nil }
      let name = line[..<colon]
      guard !name.isEmpty, !name.contains(where: { $0 == " " || $0 == "\t" }) else { return nil }
      headers.append((String(name), Self.trimmed(line[line.index(after: colon)...])))
    }
    let target = requestLine[1]
    self.init(
      method: String(requestLine[0]),
      path: String(target[..<(target.firstIndex(of: "?") ?? target.endIndex)]),
      version: String(requestLine[2]),
      headers: headers,
      id: ""
    )
  }

  private static func trimmed(_ text: Substring) -> String {
    let isBlank = { (character: Character) in character == " " || character == "\t" }
    guard let first = text.firstIndex(where: { !isBlank($0) }) else { return "" }
    let last = text.lastIndex(where: { !isBlank($0) })!
    return String(text[first...last])
  }

  /// The bytes that end a request head.
  static let headTerminator: [UInt8] = Array("\r\n\r\n".utf8)

  /// Returns the position just past the first blank line in `bytes`, or `nil` if it has none.
  static func endOfHead(in bytes: [UInt8]) -> Int? {
    var start = 0
    while start + headTerminator.count <= bytes.count {
      if bytes[start..<start + headTerminator.count].elementsEqual(headTerminator) {
        return start + headTerminator.count
      }
      start += 1
    }
    return nil
  }
}
