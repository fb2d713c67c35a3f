/// The dependencies visible to the current task: scoped overrides, then global values, then
/// each key's default.
///
/// Extend `InjectedValues` with one computed property per dependency. The accessor can be
/// written against the instance (`self[Key.self]`) or, as in existing apps, against the type
/// (`Self[Key.self]`); both behave the same.
///
/// ```swift
/// private struct GreetingKey: InjectionKey {
///   static let currentValue = "Hello"
/// }
///
/// extension InjectedValues {
///   var greeting: String {
///     get { self[GreetingKey.self] }
///     set { self[GreetingKey.self] = newValue }
///   }
/// }
///
/// InjectedValues[\.greeting]            // "Hello": the default
/// withInjectedValues { $0.greeting = "Hi" } operation: {
///   InjectedValues[\.greeting]          // "Hi": this scope's override
/// }
/// ```
///
/// ## Resolution order
///
/// A read sees the innermost scope's override for that key; otherwise the global fallback, set
/// by `InjectedValues[\.x] = v`, by `Self[Key.self] = v` outside an update closure, or by
/// ``Injected``'s setter; otherwise `Key.currentValue`.
///
/// A value of this type is a snapshot of the overrides of one task (see ``current``). It holds
/// overrides only: global values and defaults are looked up when a key is read, so a global
/// change is visible at once wherever no scope overrides that key.
public struct InjectedValues: Sendable {
  /// The innermost override; it links to the others. See `OverrideNode` for the layout.
  @usableFromInline var overrides: (any OverrideNode)?
  /// A special behaviour, consulted only when a key has no override, and on writes.
  @usableFromInline var role: ValuesRole?
  /// How many scopes deep these values are; recorded on each override for descriptions.
  @usableFromInline var depth: Int

  // Internal on purpose: values come from `current`, so every value a user holds is a real
  // snapshot of some task's overrides.
  @inlinable
  init() {
    overrides = nil
    role = nil
    depth = 0
  }

  @usableFromInline
  static let _storage = TaskLocal(wrappedValue: InjectedValues())

  // MARK: - Reading and writing one key

  /// Accesses the dependency that `key` names, as these values see it.
  ///
  /// Use it in accessors on `InjectedValues`. Reading returns this value's override for the
  /// key, else the global fallback, else `Key.currentValue`. Writing overrides the key in this
  /// value only: in an update closure, that is the new scope's override.
  ///
  /// ```swift
  /// extension InjectedValues {
  ///   var greeting: String {
  ///     get { self[GreetingKey.self] }
  ///     set { self[GreetingKey.self] = newValue }
  ///   }
  /// }
  /// ```
  ///
  /// - Parameter key: The key type of the dependency.
  /// - Returns: The dependency's value.
  @inlinable
  public subscript<Key: InjectionKey>(_ key: Key.Type) -> Key.Value {
    get {
      if let value = _override(of: Key.self) { return value }
      if role != nil { return _resolveWithRole(Key.self) }
      return Self._fallback(Key.self)
    }
    set {
      if let role, role.routesWrites {
        if role === ValuesRole.updateProxy, let context = UpdateContext.active {
          context.pointee.set(newValue, for: Key.self)
        } else {
          _write(newValue, for: Key.self)
        }
      } else {
        _store(newValue, for: Key.self, site: .snapshot)
      }
    }
  }

  /// Accesses the dependency that `key` names, as the current task sees it.
  ///
  /// This is the accessor style of the seed pattern, `Self[Key.self]`, and it behaves exactly
  /// like `self[Key.self]`:
  ///
  /// - Inside an update closure, reading sees the values being built and writing overrides the
  ///   key in the new scope only.
  /// - Elsewhere, reading sees the current task's values, and writing sets the global fallback.
  ///
  /// ```swift
  /// extension InjectedValues {
  ///   var greeting: String {
  ///     get { Self[GreetingKey.self] }
  ///     set { Self[GreetingKey.self] = newValue }
  ///   }
  /// }
  /// ```
  ///
  /// - Parameter key: The key type of the dependency.
  /// - Returns: The dependency's value.
  @inlinable
  public static subscript<Key: InjectionKey>(_ key: Key.Type) -> Key.Value {
    get {
      if let context = UpdateContext.active { return context.pointee.get(Key.self) }
      return _storage.get()[Key.self]
    }
    set {
      if let context = UpdateContext.active {
        context.pointee.set(newValue, for: Key.self)
      } else {
        _setFromStaticSubscript(newValue, for: Key.self)
      }
    }
  }

  // MARK: - Reading and writing through accessors

  /// Accesses a dependency through its accessor: reading sees the current task's value,
  /// writing sets the global fallback.
  ///
  /// ```swift
  /// InjectedValues[\.greeting] = "Howdy"   // the global fallback, for every task
  /// InjectedValues[\.greeting]             // "Howdy", unless a scope overrides it
  /// ```
  ///
  /// The write is global even inside a scope; to override in one scope, use
  /// ``withInjectedValues(_:operation:fileID:line:)``.
  ///
  /// - Parameter keyPath: The accessor on `InjectedValues`.
  /// - Returns: The value visible to the current task.
  @inlinable
  public static subscript<Value>(_ keyPath: WritableKeyPath<InjectedValues, Value>) -> Value {
    get { _storage.get()[keyPath: keyPath] }
    set { _setGlobal(newValue, through: keyPath) }
  }

  /// Reads a dependency through a get-only accessor, as the current task sees it.
  ///
  /// Get-only accessors are read-only views of other dependencies:
  ///
  /// ```swift
  /// extension InjectedValues {
  ///   var shout: String { greeting.uppercased() }
  /// }
  ///
  /// InjectedValues[\.shout]   // "HELLO"
  /// ```
  ///
  /// - Parameter keyPath: The accessor on `InjectedValues`.
  /// - Returns: The value visible to the current task.
  @inlinable
  public static subscript<Value>(_ keyPath: KeyPath<InjectedValues, Value>) -> Value {
    _storage.get()[keyPath: keyPath]
  }

  // MARK: - Snapshots

  /// The overrides the current task sees, as a value you can carry to another task or thread.
  ///
  /// Re-enter it with ``withInjectedValues(_:operation:)`` where the scope is not inherited:
  /// in `Task.detached`, a `DispatchQueue` block, or a stored callback.
  ///
  /// ```swift
  /// let values = InjectedValues.current
  /// Task.detached {
  ///   withInjectedValues(values) {
  ///     InjectedValues[\.greeting]   // the overrides of the task that took the snapshot
  ///   }
  /// }
  /// ```
  ///
  /// A snapshot holds overrides only; global values and defaults are still looked up when a
  /// key is read. Inside an update closure, `current` is the enclosing scope's values: read the
  /// values being built through the closure's argument.
  public static var current: InjectedValues {
    @inlinable get { _storage.get() }
  }
}
