// A public struct as a key's value. Swift infers `Sendable` for structs that are not public
// only: a public one must say so, or the key fails with "type 'ActivityValidator' does not
// conform to the 'Sendable' protocol".
import Injection

// Before: public struct ActivityValidator {
/// Checks the names of activities.
public struct ActivityValidator: Sendable {
  /// The shortest valid name.
  public var minimumLength: Int

  /// Creates a validator that accepts names of `minimumLength` characters or more.
  public init(minimumLength: Int = 3) {
    self.minimumLength = minimumLength
  }

  /// Returns whether `name` is long enough.
  public func isValid(_ name: String) -> Bool { name.count >= minimumLength }
}

/// The key of the activity validator.
public struct ActivityValidatorKey: InjectionKey {
  /// The default validator.
  public static let currentValue = ActivityValidator()
}

extension InjectedValues {
  /// The validator that checks activity names.
  public var activityValidator: ActivityValidator {
    get { self[ActivityValidatorKey.self] }
    set { self[ActivityValidatorKey.self] = newValue }
  }
}
