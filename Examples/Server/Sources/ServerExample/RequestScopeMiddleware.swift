import Injection

/// The middleware of this example: it runs each request inside its own dependency scope.
///
/// Everything the rest of the request does, including child tasks it starts, sees this
/// request's ``RequestContext``, its tenant's ``TenantRepository`` and its own
/// ``DatabaseConnection``, however many requests run at once. The scope belongs to the request,
/// not to the connection: two requests on one kept-alive connection get two scopes.
///
/// The database connection is declared with `lazy`: the first read in the request opens it,
/// every task of the request shares it, and it is closed when the request ends. A request that
/// never reads it, such as a 404, opens none.
///
/// ```swift
/// let middleware = RequestScopeMiddleware()
/// let response = await middleware.respond(to: request) { _ in
///   await WhoAmIHandler().handle()
/// }
/// // The request's database connection, if it opened one, is closed here.
/// ```
public struct RequestScopeMiddleware: Sendable {
  /// The database that each request's connection comes from.
  ///
  /// ```swift
  /// middleware.database.opened   // how many requests have opened a connection
  /// ```
  public let database: Database

  /// Returns the repository of a tenant.
  public let repositoryForTenant: @Sendable (String) -> any TenantRepository

  /// Creates the middleware.
  ///
  /// - Parameters:
  ///   - database: The database that each request's connection comes from; tests pass one to
  ///     read its counters.
  ///   - repositoryForTenant: Returns the repository of a tenant; by default, an
  ///     ``InMemoryTenantRepository``.
  public init(
    database: Database = Database(),
    repositoryForTenant: @escaping @Sendable (String) -> any TenantRepository = {
      InMemoryTenantRepository(tenant: $0)
    }
  ) {
    self.database = database
    self.repositoryForTenant = repositoryForTenant
  }

  /// Runs `next` inside a scope holding the request's context, its tenant's repository and a
  /// database connection opened on first use.
  ///
  /// The connection, if the request opened one, is closed before this method returns or
  /// rethrows, so by the time the response is written it is closed.
  ///
  /// - Parameters:
  ///   - request: The request; its `X-Tenant` header names the tenant.
  ///   - next: The rest of the request handling.
  /// - Returns: What `next` returns, or 400 if the request names no tenant.
  /// - Throws: What `next` throws.
  public func respond(
    to request: HTTPRequest,
    next: (HTTPRequest) async throws -> HTTPResponse
  ) async rethrows -> HTTPResponse {
    guard let tenant = request.header("X-Tenant"), !tenant.isEmpty else {
      return .error(400, "Bad Request", message: "missing X-Tenant header")
    }
    let database = database
    return try await withInjectedValues {
      $0.requestContext = RequestContext(requestID: request.id, tenant: tenant)
      $0.tenantRepository = repositoryForTenant(tenant)
      $0.lazy(\.databaseConnection) {
        database.open(tenant: tenant)
      } teardown: {
        await $0.close()
      }
    } operation: {
      try await next(request)
    }
  }
}
