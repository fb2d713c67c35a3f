public import Injection

/// What a handler knows about the request it serves: its ID and its tenant.
///
/// The ``RequestScopeMiddleware`` overrides it for each request; code reads it with
/// `@Injected(\.requestContext)`.
public struct RequestContext: Sendable, Equatable {
  /// The request ID.
  public let requestID: String
  /// The tenant, from the `X-Tenant` header.
  public let tenant: String

  /// Creates a request context.
  ///
  /// - Parameters:
  ///   - requestID: The request ID.
  ///   - tenant: The tenant.
  public init(requestID: String, tenant: String) {
    self.requestID = requestID
    self.tenant = tenant
  }

  /// The context seen outside any request: neither an ID nor a tenant.
  public static let outsideRequest = RequestContext(requestID: "(none)", tenant: "(none)")
}

private struct RequestContextKey: InjectionKey {
  static let currentValue = RequestContext.outsideRequest
}

extension InjectedValues {
  /// The request being served; ``RequestContext/outsideRequest`` outside any request.
  public var requestContext: RequestContext {
    get { self[RequestContextKey.self] }
    set { self[RequestContextKey.self] = newValue }
  }
}
