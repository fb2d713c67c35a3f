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
/// A read sees the innermost scope's override for that key; otherwise the global value, set by
/// `InjectedValues[\.x] = v`, by `Self[Key.self] = v` outside an update closure, or by
/// ``Injected``'s setter; otherwise `Key.currentValue`.
///
/// A value of this type is a snapshot of the overrides of one task (see ``current``). It holds
/// overrides only: global values and defaults are looked up when a key is read, so a global
/// change is visible at once wherever no scope overrides that key.
public struct InjectedValues: Sendable {
  /// The chain of these values (a `Node`, the innermost override, which links to the others), or
  /// in `$0` and its copies, the update closure's `UpdateBuilder`. See `Node` for the layout.
  @usableFromInline var storage: (any AnyObject & Sendable)?
  /// Where writes to this value are recorded as set, and the layer of the nodes they add (see
  /// `OverrideSite.layer`): a write replaces a node of the same layer at the top of the chain
  /// instead of hiding it. `nil` until the first write to a snapshot, which then takes the
  /// layer of the chain it starts from.
  @usableFromInline var site: OverrideSite?
  /// Whether this value's own overrides include a value built on first use (`lazy`).
  @usableFromInline var ownsLazyValues: Bool

  /// A snapshot of the chain at `head`, with no writes of its own.
  @inlinable
  init(head: Node?) {
    self.storage = head
    self.site = nil
    self.ownsLazyValues = false
  }

  /// `$0`, or a copy of it: the values that `builder` builds.
  @inlinable
  init(builder: UpdateBuilder) {
    self.storage = builder
    self.site = nil
    self.ownsLazyValues = false
  }

  /// The innermost override of these values, unless they refer to a builder.
  @inlinable
  var head: Node? {
    get { Self.isBuilder(storage) ? nil : storage.map { unsafeDowncast($0, to: Node.self) } }
    set { storage = newValue }
  }

  /// The update closure's builder, in `$0` and its copies.
  @inlinable
  var builder: UpdateBuilder? {
    Self.isBuilder(storage)
      ? unsafeDowncast(storage.unsafelyUnwrapped, to: UpdateBuilder.self) : nil
  }

  /// The chain these values show to the code running now.
  @inlinable
  var chain: Node? { Self.chain(of: storage) }

  /// Whether `object`, the storage of values or of a task, is an update closure's builder.
  @inlinable
  static func isBuilder(_ object: (any AnyObject & Sendable)?) -> Bool {
    guard let object else { return false }
    return ObjectIdentifier(type(of: object)) == ObjectIdentifier(UpdateBuilder.self)
  }

  /// The chain that `storage`, a `Node` or an `UpdateBuilder`, shows to the code running now.
  @inlinable
  static func chain(of storage: (any AnyObject & Sendable)?) -> Node? {
    guard let storage else { return nil }
    if isBuilder(storage) { return unsafeDowncast(storage, to: UpdateBuilder.self).chain }
    return unsafeDowncast(storage, to: Node.self)
  }

  // Internal on purpose: values come from `current`, so every value a user holds is a real
  // snapshot of some task's overrides.
  @inlinable
  init() {
    self.init(head: nil)
  }

  // MARK: - Reading and writing one key

  /// Accesses the dependency that `key` names, as these values see it.
  ///
  /// Use it in accessors on `InjectedValues`. Reading returns this value's override for the
  /// key, else the global value, else `Key.currentValue`. Writing overrides the key in this value
  /// only: in an update closure, that is the new scope's override.
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
    get { Self.read(Key.self, in: chain) }
    set {
      if let builder { return writeThroughBuilder(newValue, for: Key.self, builder: builder) }
      writeBox(newValue, for: Key.self)
    }
  }

  /// Accesses the dependency that `key` names, as the current task sees it.
  ///
  /// This is the accessor style of the seed pattern, `Self[Key.self]`, and it behaves like
  /// `self[Key.self]`:
  ///
  /// - Inside an update closure, reading sees the values being built and writing overrides the
  ///   key in them.
  /// - Elsewhere, reading sees the current task's values, and writing sets the global value.
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
  /// A seed-style setter cannot tell which value it was called on: it writes into the values of
  /// the update closure that the current code runs, if any, else the global value. See
  /// "Seed-style accessors" in the rules.
  ///
  /// - Parameter key: The key type of the dependency.
  /// - Returns: The dependency's value.
  @inlinable
  public static subscript<Key: InjectionKey>(_ key: Key.Type) -> Key.Value {
    @inline(__always) get {
      #if DEBUG
        noteSeedRead(of: Key.self)
      #endif
      return read(Key.self, in: _visibleHead)
    }
    set { setFromType(newValue, for: Key.self) }
  }

  // MARK: - Reading and writing through accessors

  /// Accesses a dependency through its accessor: reading sees the current task's value, writing
  /// sets the global value.
  ///
  /// ```swift
  /// InjectedValues[\.greeting] = "Howdy"  // the global value, for every task
  /// InjectedValues[\.greeting]  // "Howdy", unless a scope overrides it
  /// ```
  ///
  /// The write is global even inside a scope; to override in one scope, use
  /// ``withInjectedValues(_:operation:fileID:line:)``. A write starts from the global value (or
  /// the default), never from a scope's override, so `InjectedValues[\.config.timeout] = 5` keeps
  /// the global value's other members.
  ///
  /// - Parameter keyPath: The accessor on `InjectedValues`.
  /// - Returns: The value visible to the current task.
  @inlinable
  public static subscript<Value>(_ keyPath: WritableKeyPath<InjectedValues, Value>) -> Value {
    @inline(__always) get { InjectedValues(head: _visibleHead)[keyPath: keyPath] }
    set { setGlobal(newValue, through: keyPath) }
    _modify {
      var value = globalValue { InjectedValues()[keyPath: keyPath] }
      yield &value
      setGlobal(value, through: keyPath)
    }
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
    @inline(__always) get { InjectedValues(head: _visibleHead)[keyPath: keyPath] }
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
  ///     InjectedValues[\.greeting]  // as in the task that took the snapshot
  ///   }
  /// }
  /// ```
  ///
  /// A snapshot holds overrides only; global values and defaults are still looked up when a
  /// key is read. Inside an update closure, `current` is a copy of `$0`: it refers to the values
  /// being built (see "Update closures" in the rules).
  public static var current: InjectedValues {
    if let builder = runningBuilder { return InjectedValues(builder: builder) }
    return InjectedValues(head: _visibleHead)
  }

  // MARK: - Removing global values

  /// Removes the global value of the dependency behind an accessor, so that reads fall back to
  /// its default again.
  ///
  /// ```swift
  /// InjectedValues[\.greeting] = "Howdy"
  /// InjectedValues.resetGlobal(\.greeting)
  /// InjectedValues[\.greeting]   // "Hello": the default
  /// ```
  ///
  /// Scopes are untouched: a scope that overrides the key keeps its override. The accessor's
  /// getter runs once to find the keys it reads; each of them loses its global value.
  ///
  /// - Parameter keyPath: The accessor on `InjectedValues`.
  public static func resetGlobal<Value>(_ keyPath: KeyPath<InjectedValues, Value>) {
    resetGlobals(of: _keysRead(by: keyPath))
  }

  /// Removes every global value, so that every read that no scope overrides sees its key's
  /// default again.
  ///
  /// ```swift
  /// InjectedValues[\.greeting] = "Howdy"
  /// InjectedValues.resetAllGlobals()
  /// InjectedValues[\.greeting]   // "Hello"
  /// ```
  public static func resetAllGlobals() {
    resetGlobals(of: nil)
  }
}
