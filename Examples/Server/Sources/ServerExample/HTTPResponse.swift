/// An HTTP response with a JSON body.
///
/// ```swift
/// let response = HTTPResponse.json(["tenant": "acme"])
/// response.body   // {"tenant":"acme"}
/// ```
public struct HTTPResponse: Sendable {
  /// The status code, such as 200.
  public var status: Int
  /// The reason phrase, such as `OK`.
  public var reason: String
  /// Header fields to send besides `Content-Type`, `Content-Length` and `Connection`.
  public var headers: [(name: String, value: String)]
  /// The body, a JSON document.
  public var body: String

  /// Creates a response.
  ///
  /// - Parameters:
  ///   - status: The status code.
  ///   - reason: The reason phrase.
  ///   - headers: Header fields besides `Content-Type`, `Content-Length` and `Connection`.
  ///   - body: The JSON body.
  public init(
    status: Int,
    reason: String,
    headers: [(name: String, value: String)] = [],
    body: String
  ) {
    self.status = status
    self.reason = reason
    self.headers = headers
    self.body = body
  }

  /// Returns a response whose body is a JSON object of string fields, in the order given.
  ///
  /// - Parameters:
  ///   - fields: The object's fields.
  ///   - status: The status code.
  ///   - reason: The reason phrase.
  /// - Returns: The response.
  public static func json(
    _ fields: KeyValuePairs<String, String>,
    status: Int = 200,
    reason: String = "OK"
  ) -> HTTPResponse {
    var body = "{"
    for (key, value) in fields {
      if body.utf8.count > 1 { body += "," }
      body += jsonString(key) + ":" + jsonString(value)
    }
    return HTTPResponse(status: status, reason: reason, body: body + "}")
  }

  /// Returns an error response whose body is `{"error": message}`.
  ///
  /// - Parameters:
  ///   - status: The status code.
  ///   - reason: The reason phrase.
  ///   - message: What went wrong.
  /// - Returns: The response.
  public static func error(_ status: Int, _ reason: String, message: String) -> HTTPResponse {
    json(["error": message], status: status, reason: reason)
  }

  /// The response as bytes on the wire.
  func serialized(keepAlive: Bool) -> [UInt8] {
    let body = Array(body.utf8)
    let head =
      "HTTP/1.1 \(status) \(reason)\r\n"
      + "Content-Type: application/json\r\n"
      + "Content-Length: \(body.count)\r\n"
      + "Connection: \(keepAlive ? "keep-alive" : "close")\r\n"
      + headers.map { "\($0.name): \($0.value)\r\n" }.joined() + "\r\n"
    return Array(head.utf8) + body
  }

  /// Quotes and escapes `text` as a JSON string.
  private static func jsonString(_ text: String) -> String {
    var needsEscaping = false
    for byte in text.utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5C {  // control, ", \
      needsEscaping = true
    }
    guard needsEscaping else { return "\"" + text + "\"" }
    var escaped = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": escaped += "\\\""
      case "\\": escaped += "\\\\"
      case "\n": escaped += "\\n"
      case "\r": escaped += "\\r"
      case "\t": escaped += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped + "\""
  }
}
