/// A property wrapper that reads a dependency from the current task's values on every access.
///
/// ```swift
/// struct Greeter {
///   @Injected(\.greeting) var greeting: String
///
///   func greet(_ name: String) -> String { "\(greeting), \(name)!" }
/// }
///
/// withInjectedValues { $0.greeting = "Hi" } operation: {
///   Greeter().greet("Ada")   // "Hi, Ada!"
/// }
/// ```
///
/// The wrapper stores only the key path. It resolves on every access, in the scope active at
/// that access, so an object created inside a scope and used after the scope has ended sees
/// the outer values. To keep a scope's values, take ``InjectedValues/current`` inside the scope
/// and re-enter it with ``withInjectedValues(_:operation:)``.
///
/// Setting the wrapped value sets the global fallback, as `InjectedValues[\.x] = v` does. The
/// setter is `nonmutating` for that reason. Assigning through a wrapper over a get-only
/// accessor stops the program with a message: there is no key to set.
@propertyWrapper
public struct Injected<Value>: Sendable {
  @usableFromInline
  let keyPath: KeyPath<InjectedValues, Value> & Sendable

  /// Creates a wrapper that reads the dependency behind `keyPath`.
  ///
  /// ```swift
  /// @Injected(\.greeting) var greeting
  /// ```
  ///
  /// - Parameter keyPath: The accessor on ``InjectedValues``; a get-only one makes the wrapper
  ///   read-only.
  @inlinable
  public init(_ keyPath: KeyPath<InjectedValues, Value> & Sendable) {
    self.keyPath = keyPath
  }

  /// The dependency as the current task sees it; setting it sets the global fallback.
  ///
  /// ```swift
  /// greeter.greeting = "Howdy"   // global: every task without an override sees "Howdy"
  /// ```
  @inlinable
  public var wrappedValue: Value {
    get { InjectedValues._storage.get()[keyPath: keyPath] }
    nonmutating set { Self._setGlobal(newValue, through: keyPath) }
  }

  @usableFromInline
  static func _setGlobal(_ value: Value, through keyPath: KeyPath<InjectedValues, Value>) {
    guard let writable = keyPath as? WritableKeyPath<InjectedValues, Value> else {
      fatalError(
        "Injection: cannot assign through @Injected(\(keyPath)): its accessor on InjectedValues "
          + "is get-only, a read-only view of another dependency. Assign that dependency instead."
      )
    }
    InjectedValues._setGlobal(value, through: writable)
  }
}
