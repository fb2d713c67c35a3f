internal import CInjectionSupport

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
/// The wrapper stores only a way to read the key path. It resolves on every access, in the scope active at
/// that access, so an object created inside a scope and used after the scope has ended sees
/// the outer values. To keep a scope's values, take ``InjectedValues/current`` inside the scope
/// and re-enter it with ``withInjectedValues(_:operation:)``.
///
/// Setting the wrapped value sets the global value, as `InjectedValues[\.x] = v` does. The
/// setter is `nonmutating` for that reason. A write to a member, such as
/// `settings.config.timeout = 5`, starts from the global value (or the default), never from a
/// scope's override. Assigning through a wrapper over a get-only accessor stops the program
/// with a message: there is no key to set.
@propertyWrapper
public struct Injected<Value>: Sendable {
  /// Reads `values` through the key path, or, given a new value, sets the global value through
  /// it and returns that value.
  ///
  /// The closure is what the wrapper stores: it alone captures the key path, and every read and
  /// write goes through it.
  @usableFromInline
  let access: @Sendable (_ values: InjectedValues, _ newValue: UnsafePointer<Value>?) -> Value

  /// Creates a wrapper that reads the dependency behind `keyPath`.
  ///
  /// ```swift
  /// @Injected(\.greeting) var greeting
  /// ```
  ///
  /// - Parameter keyPath: The accessor on ``InjectedValues``; a get-only one makes the wrapper
  ///   read-only.
  @inlinable
  public init(_ keyPath: any KeyPath<InjectedValues, Value> & Sendable) {
    access = { values, newValue in
      guard let newValue else { return values[keyPath: keyPath] }
      return Self.assign(newValue) { keyPath }
    }
  }

  /// Creates a wrapper that reads, on the main actor, the dependency behind an accessor that is
  /// isolated to the main actor.
  ///
  /// In a module whose declarations are isolated to the main actor by default, accessors on
  /// `InjectedValues` are too, and their key paths are not `Sendable`. Inside a main-actor type,
  /// `@Injected` takes them anyway. (Swift 6.3.1 keeps that default isolation inside the
  /// accessor's module only: write `@MainActor` on accessors that other modules use, or there
  /// they are nonisolated and select the other initializer; Migrating.md, "Accessors that other
  /// modules use".)
  ///
  /// ```swift
  /// @MainActor
  /// final class ProfileViewModel {
  ///   @Injected(\.networkProvider) var networkProvider  // main-actor accessor
  /// }
  /// ```
  ///
  /// Such a wrapper must be read and written on the main actor, which a main-actor type ensures;
  /// used off the main actor, it stops the program with a message that says so. A key path that
  /// is `Sendable` (an accessor that is not isolated) selects the other initializer, which any
  /// thread can use. This one
  /// exists in the Swift 6 language mode only, where key paths to isolated accessors are not
  /// `Sendable`.
  ///
  /// - Parameter keyPath: The accessor on ``InjectedValues``, isolated to the main actor.
  @available(swift, introduced: 6)
  @MainActor
  @inlinable
  public init(_ keyPath: KeyPath<InjectedValues, Value>) {
    // The key path is applied only on the main actor, which `checkMainActor` checks; it is
    // captured as it is, as in the other initializer.
    nonisolated(unsafe) let keyPath = keyPath
    access = { values, newValue in
      guard let newValue else {
        // Off the main actor the check stops the program; on it, the key path is applied here.
        Self.checkMainActor()
        return values[keyPath: keyPath]
      }
      return Self.assign(newValue, onMainActor: true) { keyPath }
    }
  }

  /// The dependency as the current task sees it; setting it sets the global value.
  ///
  /// ```swift
  /// // The global value: every task without an override sees "Howdy".
  /// greeter.greeting = "Howdy"
  /// ```
  @inlinable
  public var wrappedValue: Value {
    @inline(__always) get { access(InjectedValues(head: InjectedValues._visibleHead), nil) }
    nonmutating set {
      _ = withUnsafePointer(to: newValue) { access(InjectedValues(), $0) }
    }
    nonmutating _modify {
      var value = InjectedValues.globalValue { access(InjectedValues(), nil) }
      yield &value
      _ = withUnsafePointer(to: value) { access(InjectedValues(), $0) }
    }
  }

  /// Sets the global value to `value.pointee`, through the key path that `keyPath` returns, and
  /// returns that value: the write path of the initializers' closures, kept out of them. With
  /// `onMainActor`, it stops the program unless it runs on the main actor.
  @usableFromInline @inline(never)
  static func assign(
    _ value: UnsafePointer<Value>,
    onMainActor: Bool = false,
    through keyPath: () -> KeyPath<InjectedValues, Value>
  ) -> Value {
    if onMainActor { checkMainActor() }
    guard let writable = keyPath() as? WritableKeyPath<InjectedValues, Value> else {
      fatalError(
        "Injection: cannot assign through @Injected(\(keyPath())): its accessor on InjectedValues "
          + "is get-only, a read-only view of another dependency. Assign that dependency instead."
      )
    }
    InjectedValues.setGlobal(value.pointee, through: writable)
    return value.pointee
  }

  /// Stops the program, with a message, unless it runs on the main actor: what the main-actor
  /// initializer's wrapper checks before it applies its key path.
  ///
  /// On the main thread the check is one thread-local load (the system is asked once per
  /// thread); elsewhere it asks whether the main dispatch queue is running (`MainQueue`), since
  /// the main actor does not always run on the main thread: on Linux, once the main thread parks
  /// in `dispatch_main()`, worker threads run the main queue, and Swift Testing's main-actor tests
  /// run there.
  @usableFromInline
  static func checkMainActor() {
    if injection_is_main_thread() != 0 || MainQueue.isCurrent { return }
    fatalError(
      "Injection: an @Injected wrapper over an accessor isolated to the main actor was read or "
        + "written off the main actor. Use it on the main actor only, or make its accessor on "
        + "InjectedValues nonisolated, so that any thread can read it."
    )
  }
}

// MARK: - Reading a wrapper stored as a constant

extension Injected {
  /// Reads the dependency as the current task sees it, for a wrapper stored as a `let`.
  ///
  /// A `Sendable` class cannot hold a property wrapper, whose storage is a `var`. Store the
  /// wrapper as a constant instead, and call it where you would read the property; each call
  /// resolves in the scope active at that call, exactly as reading `@Injected` does:
  ///
  /// ```swift
  /// final class APIClient: Sendable {
  ///   let greeting = Injected(\.greeting)
  ///
  ///   func welcome(_ name: String) -> String { "\(greeting()), \(name)!" }
  /// }
  ///
  /// withInjectedValues { $0.greeting = "Hi" } operation: {
  ///   APIClient().welcome("Ada")   // "Hi, Ada!"
  /// }
  /// ```
  ///
  /// The same works in an actor, a struct or a main-actor class, which can also use `@Injected`.
  /// A wrapper over a main-actor accessor must be called on the main actor.
  ///
  /// - Returns: The dependency's value in the current scope: its override, else its global
  ///   value, else its key's default.
  @inlinable
  public func callAsFunction() -> Value {
    wrappedValue
  }
}
