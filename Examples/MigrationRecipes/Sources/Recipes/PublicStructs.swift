// A public struct as a key's value. Swift infers `Sendable` for structs that are not public
// only: a public one must say so, or the key fails with "type 'ActivityValidator' does not
// conform to the 'Sendable' protocol".
import Injection

// Before: public struct ActivityValidator {
public struct ActivityValidator: Sendable {
  public var minimumLength: Int

  public init(minimumLength: Int = 3) {
    self.minimumLength = minimumLength
  }

  public func isValid(_ name: String) -> Bool { name.count >= minimumLength }
}

public struct ActivityValidatorKey: InjectionKey {
  public static let currentValue = ActivityValidator()
}

extension InjectedValues {
  public var activityValidator: ActivityValidator {
    get { self[ActivityValidatorKey.self] }
    set { self[ActivityValidatorKey.self] = newValue }
  }
}
