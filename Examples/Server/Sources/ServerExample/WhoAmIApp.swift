/// The example's application: the request-scope middleware in front of one route, `GET /whoami`.
///
/// The server calls ``respond(to:)`` for every request; tests call it directly, without sockets.
/// `GET /whoami` opens one database connection (the repository reads it); a request that ends
/// in an error response opens none.
///
/// ```swift
/// let app = WhoAmIApp()
/// let request = HTTPRequest(
///   method: "GET",
///   path: "/whoami",
///   headers: [("X-Tenant", "acme")],
///   id: "req-1"
/// )
/// let response = await app.respond(to: request)   // 200, {"requestID":"req-1","tenant":"acme",…}
/// ```
public struct WhoAmIApp: Sendable {
  private let middleware: RequestScopeMiddleware

  /// Creates the application.
  ///
  /// - Parameter middleware: The middleware that enters each request's scope; it owns the
  ///   database that requests take their connections from.
  public init(middleware: RequestScopeMiddleware = RequestScopeMiddleware()) {
    self.middleware = middleware
  }

  /// Returns the response to `request`.
  ///
  /// - Parameter request: The request, with its ID set.
  /// - Returns: The response: 200 from `GET /whoami`, otherwise an error.
  public func respond(to request: HTTPRequest) async -> HTTPResponse {
    await middleware.respond(to: request) { request in
      guard request.path == "/whoami" else {
        return .error(404, "Not Found", message: "no route for \(request.path)")
      }
      guard request.method == "GET" else {
        var response = HTTPResponse.error(405, "Method Not Allowed", message: "use GET")
        response.headers = [("Allow", "GET")]
        return response
      }
      return await WhoAmIHandler().handle()
    }
  }
}
