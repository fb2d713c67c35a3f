public import Injection

/// Reads one tenant's data. Each request gets the repository of its own tenant.
public protocol TenantRepository: Sendable {
  /// The tenant whose data this repository reads.
  var tenant: String { get }

  /// Loads the profile of the user making the current request.
  ///
  /// - Returns: The profile, as this tenant's store has it.
  func currentUserProfile() async -> UserProfile
}

/// A user's profile as one tenant's store has it.
public struct UserProfile: Sendable, Equatable {
  /// The tenant whose store holds the profile.
  public let tenant: String
  /// The request that loaded it.
  public let loadedByRequest: String
  /// The ID of the database connection it was loaded over.
  ///
  /// ```swift
  /// await repository.currentUserProfile().connectionID   // the request's connection
  /// ```
  public let connectionID: Int

  /// Creates a profile.
  ///
  /// - Parameters:
  ///   - tenant: The tenant whose store holds the profile.
  ///   - loadedByRequest: The ID of the request that loaded it.
  ///   - connectionID: The ID of the database connection it was loaded over.
  public init(tenant: String, loadedByRequest: String, connectionID: Int) {
    self.tenant = tenant
    self.loadedByRequest = loadedByRequest
    self.connectionID = connectionID
  }
}

/// A repository of one tenant, which queries the request's database connection.
///
/// It reads the request context and the connection with `@Injected` itself, deeper in the call
/// stack and after a suspension: the request's scope follows the task there. Its first read of
/// the connection in a request opens it.
public struct InMemoryTenantRepository: TenantRepository {
  /// The tenant whose data this repository reads.
  public let tenant: String
  @Injected(\.requestContext) private var context
  @Injected(\.databaseConnection) private var connection

  /// Creates the repository of `tenant`.
  ///
  /// - Parameter tenant: The tenant.
  public init(tenant: String) {
    self.tenant = tenant
  }

  /// Loads the profile of the user making the current request.
  ///
  /// - Returns: The profile, stamped with the request that the repository sees and the
  ///   connection it used.
  public func currentUserProfile() async -> UserProfile {
    let connection = connection  // the request's connection: the first read opens it
    await connection.query(forRequest: context.requestID)
    return UserProfile(
      tenant: tenant,
      loadedByRequest: context.requestID,
      connectionID: connection.id
    )
  }
}

private struct TenantRepositoryKey: InjectionKey {
  // Outside a request there is no tenant; the default makes that visible in any answer.
  static let currentValue: any TenantRepository = InMemoryTenantRepository(tenant: "(none)")
}

extension InjectedValues {
  /// The current request's tenant repository.
  public var tenantRepository: any TenantRepository {
    get { self[TenantRepositoryKey.self] }
    set { self[TenantRepositoryKey.self] = newValue }
  }
}
