import Injection

/// The middleware of this example: it runs each request inside its own dependency scope.
///
/// Everything the rest of the request does, including child tasks it starts, sees this
/// request's ``RequestContext`` and its tenant's ``TenantRepository``, however many requests
/// run at once. The scope belongs to the request, not to the connection: two requests on one
/// kept-alive connection get two scopes.
///
/// ```swift
/// let middleware = RequestScopeMiddleware()
/// let response = await middleware.respond(to: request) { _ in
///   await WhoAmIHandler().handle()
/// }
/// ```
public struct RequestScopeMiddleware: Sendable {
  /// Returns the repository of a tenant.
  public let repositoryForTenant: @Sendable (String) -> any TenantRepository

  /// Creates the middleware.
  ///
  /// - Parameter repositoryForTenant: Returns the repository of a tenant; by default, an
  ///   ``InMemoryTenantRepository``.
  public init(
    repositoryForTenant: @escaping @Sendable (String) -> any TenantRepository = {
      InMemoryTenantRepository(tenant: $0)
    }
  ) {
    self.repositoryForTenant = repositoryForTenant
  }

  /// Runs `next` inside a scope holding the request's context and its tenant's repository.
  ///
  /// - Parameters:
  ///   - request: The request; its `X-Tenant` header names the tenant.
  ///   - next: The rest of the request handling.
  /// - Returns: What `next` returns, or 400 if the request names no tenant.
  public func respond(
    to request: HTTPRequest,
    next: (HTTPRequest) async -> HTTPResponse
  ) async -> HTTPResponse {
    guard let tenant = request.header("X-Tenant"), !tenant.isEmpty else {
      return .error(400, "Bad Request", message: "missing X-Tenant header")
    }
    return await withInjectedValues {
      $0.requestContext = RequestContext(requestID: request.id, tenant: tenant)
      $0.tenantRepository = repositoryForTenant(tenant)
    } operation: {
      await next(request)
    }
  }
}
