// swift-format-ignore-file
// (a stand-in of another package's API shapes, not this package's code: see README.md)
// A stand-in for swift-http-types, for Docs/check-samples.sh only: the shapes the docs' samples
// use, and nothing behind them. See README.md beside this file.

/// A header field: its name here.
public struct HTTPField: Sendable {
  /// A header field's name.
  public struct Name: Sendable, Hashable {
    public let rawName: String

    public init?(_ name: String) {
      guard !name.isEmpty else { return nil }
      rawName = name
    }

    public static var contentType: Name { Name("Content-Type")! }
  }
}

/// A list of header fields.
public struct HTTPFields: Sendable, ExpressibleByDictionaryLiteral {
  private var fields: [(HTTPField.Name, String)] = []

  public init() {}

  public init(dictionaryLiteral elements: (HTTPField.Name, String)...) {
    fields = elements
  }

  public subscript(name: HTTPField.Name) -> String? {
    get { fields.first { $0.0 == name }?.1 }
    set {
      fields.removeAll { $0.0 == name }
      if let newValue { fields.append((name, newValue)) }
    }
  }
}

/// A request's head.
public struct HTTPRequest: Sendable {
  public var headerFields = HTTPFields()

  public init() {}
}

/// A response's head.
public struct HTTPResponse: Sendable {
  /// A response's status.
  public struct Status: Sendable, Equatable {
    public let code: Int

    public init(code: Int) { self.code = code }

    public static var ok: Status { Status(code: 200) }
    public static var badRequest: Status { Status(code: 400) }
    public static var notFound: Status { Status(code: 404) }
  }
}
