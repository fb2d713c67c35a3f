// swift-format-ignore-file
// (a stand-in of another package's API shapes, not this package's code: see README.md)
// A stand-in for Hummingbird 2, for Docs/check-samples.sh only: the shapes the docs' samples
// use, and nothing behind them. See README.md beside this file. Like Hummingbird, it re-exports
// `HTTPFields`, `HTTPRequest` and `HTTPResponse`, but not `HTTPField`.

@_exported public import struct HTTPTypes.HTTPFields
@_exported public import struct HTTPTypes.HTTPRequest
@_exported public import struct HTTPTypes.HTTPResponse

/// Bytes to write (NIO's `ByteBuffer`, which Hummingbird re-exports).
public struct ByteBuffer: Sendable {
  public init(string: String) {}
}

/// What a handler and a middleware see of a request besides the request itself.
public protocol RequestContext: Sendable {
  /// The request's unique ID: 32 hexadecimal digits.
  var id: String { get }
}

/// The context of a router without a context type of its own.
public struct BasicRequestContext: RequestContext {
  public var id: String { String(repeating: "0", count: 32) }
}

/// A request.
public struct Request: Sendable {
  public var head = HTTPRequest()
  public var headers: HTTPFields { head.headerFields }
}

/// Writes a response body.
public protocol ResponseBodyWriter {
  mutating func write(_ buffer: ByteBuffer) async throws
  consuming func finish(_ trailingHeaders: HTTPFields?) async throws
}

/// A response body, written when the response is.
public struct ResponseBody: Sendable {
  public init(_ write: @escaping @Sendable (inout any ResponseBodyWriter) async throws -> Void) {}
  public init(byteBuffer: ByteBuffer) {}
}

/// A response.
public struct Response: Sendable {
  public init(
    status: HTTPResponse.Status,
    headers: HTTPFields = [:],
    body: ResponseBody = .init(byteBuffer: ByteBuffer(string: ""))
  ) {}
}

/// An error that becomes a response.
public protocol HTTPResponseError: Error {
  var status: HTTPResponse.Status { get }
  func response(from request: Request, context: some RequestContext) throws -> Response
}

/// An error with a status and a message.
public struct HTTPError: Error {
  public init(_ status: HTTPResponse.Status, message: String? = nil) {}
}

/// A middleware of a router.
public protocol RouterMiddleware<Context>: Sendable {
  associatedtype Context: RequestContext
  func handle(
    _ request: Request,
    context: Context,
    next: (Request, Context) async throws -> Response
  ) async throws -> Response
}

/// Routes requests to handlers, through middleware.
public final class Router<Context: RequestContext> {
  public init(context: Context.Type = BasicRequestContext.self) {}

  public func add(middleware: some RouterMiddleware<Context>) {}

  @discardableResult
  public func get(
    _ path: String,
    use handler: @escaping @Sendable (Request, Context) async throws -> Response
  ) -> Self { self }
}

/// A server application.
public struct Application: Sendable {
  public init(router: Router<some RequestContext>) {}

  public func runService() async throws {}
}
