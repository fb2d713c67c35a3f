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

  /// Creates a profile.
  ///
  /// - Parameters:
  ///   - tenant: The tenant whose store holds the profile.
  ///   - loadedByRequest: The ID of the request that loaded it.
  public init(tenant: String, loadedByRequest: String) {
    self.tenant = tenant
    self.loadedByRequest = loadedByRequest
  }
}

/// A repository over an in-memory store for one tenant; a real app would open a database.
///
/// It reads the request context with `@Injected` itself, deeper in the call stack and after a
/// suspension: the request's scope follows the task there.
public struct InMemoryTenantRepository: TenantRepository {
  /// The tenant whose data this repository reads.
  public let tenant: String
  @Injected(\.requestContext) private var context

  /// Creates the repository of `tenant`.
  ///
  /// - Parameter tenant: The tenant.
  public init(tenant: String) {
    self.tenant = tenant
  }

  /// Loads the profile of the user making the current request.
  ///
  /// - Returns: The profile, stamped with the request that the repository sees.
  public func currentUserProfile() async -> UserProfile {
    await Task.yield()  // stands in for a database round trip
    return UserProfile(tenant: tenant, loadedByRequest: context.requestID)
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
