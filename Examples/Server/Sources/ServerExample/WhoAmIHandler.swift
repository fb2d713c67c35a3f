import Injection

/// Answers `GET /whoami` with the tenant and request that its dependencies see.
///
/// The handler takes nothing from the request: everything it needs is injected. Run it inside a
/// request's scope, as ``RequestScopeMiddleware`` does, and it answers for that request:
///
/// ```json
/// {"requestID":"1-1","tenant":"acme","repositoryTenant":"acme","repositorySawRequestID":"1-1",
///  "connectionID":"1"}
/// ```
public struct WhoAmIHandler: Sendable {
  @Injected(\.requestContext) private var context
  @Injected(\.tenantRepository) private var repository

  /// Creates the handler.
  public init() {}

  /// Returns a JSON object saying what the handler and the repository it calls each see.
  ///
  /// - Returns: A 200 response with `requestID` and `tenant` (from the request context),
  ///   `repositoryTenant` (the tenant of the repository injected for this request) and
  ///   `repositorySawRequestID` (the request the repository sees, from a child task, after a
  ///   suspension) and `connectionID` (the database connection the repository used, opened
  ///   for this request).
  public func handle() async -> HTTPResponse {
    // `async let` runs in a child task, which inherits the request's scope.
    async let profile = repository.currentUserProfile()
    let loaded = await profile
    return .json([
      "requestID": context.requestID,
      "tenant": context.tenant,
      "repositoryTenant": repository.tenant,
      "repositorySawRequestID": loaded.loadedByRequest,
      "connectionID": String(loaded.connectionID),
    ])
  }
}
