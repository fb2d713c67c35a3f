import CInjectionSupport

// MARK: - Values built once per scope

extension InjectedValues {
  /// In an update closure: overrides the dependency behind `keyPath` with a value that `make`
  /// builds on its first read in this scope (or in any task the scope starts), once, and that
  /// `teardown` tears down when the scope ends.
  ///
  /// ```swift
  /// try await withInjectedValues {
  ///   $0.lazy(\.database) { Database(name: "test") } teardown: { await $0.close() }
  /// } operation: {
  ///   try await handleRequest()   // opens the database only if it reads it
  /// }
  /// // Here the database is closed, if it was opened.
  /// ```
  ///
  /// - The value is built at most once per scope, even when many child tasks read it at once;
  ///   it is not built if nothing reads it. Each scope that declares it builds its own.
  /// - `make` sees the overrides of this update closure, but not the reader's inner scopes.
  /// - Inner scopes and snapshots taken in the scope share the value.
  /// - `teardown` runs once, only if the value was built, after the operation returns or throws
  ///   and before the scope function returns. A synchronous `withInjectedValues` cannot wait for
  ///   an asynchronous teardown, so there it stops the program before the operation runs: pass
  ///   a synchronous teardown (the overload whose `teardown` is not `async`), or use the
  ///   asynchronous scope function.
  /// - After the scope ends, the value is gone: reading it, for example through a snapshot or a
  ///   task that outlived the scope, stops the program with a message naming the key.
  ///
  /// The accessor's getter runs once, with reads falling back to global values and defaults,
  /// to find the key it reads; that key is overridden.
  ///
  /// - Parameters:
  ///   - keyPath: The accessor on `InjectedValues`, reading and writing one key.
  ///   - make: Builds the value, on its first read.
  ///   - teardown: Tears the value down when the scope ends, if it was built.
  @_disfavoredOverload  // A synchronous teardown closure selects the synchronous overload.
  public mutating func lazy<Value: Sendable>(
    _ keyPath: WritableKeyPath<InjectedValues, Value>,
    _ make: @escaping @Sendable () -> Value,
    teardown: (@Sendable (Value) async -> Void)? = nil
  ) {
    declareLazy(keyPath, make, teardown: teardown.map { .async($0) } ?? .none)
  }

  /// In an update closure: overrides the dependency behind `keyPath` with a value that `make`
  /// builds on its first read in this scope, once, and that the synchronous `teardown` tears down
  /// when the scope ends, synchronous or not.
  ///
  /// ```swift
  /// withInjectedValues {
  ///   $0.lazy(\.scratchDirectory) { TemporaryDirectory() } teardown: { $0.remove() }
  /// } operation: {
  ///   exportReport()   // creates the directory only if it reads it
  /// }
  /// // Here the directory is removed, if it was created.
  /// ```
  ///
  /// Everything else is as with an asynchronous teardown, which only an asynchronous scope (or
  /// the `.injecting` test trait) can wait for.
  ///
  /// - Parameters:
  ///   - keyPath: The accessor on `InjectedValues`, reading and writing one key.
  ///   - make: Builds the value, on its first read.
  ///   - teardown: Tears the value down when the scope ends, if it was built.
  public mutating func lazy<Value: Sendable>(
    _ keyPath: WritableKeyPath<InjectedValues, Value>,
    _ make: @escaping @Sendable () -> Value,
    teardown: @escaping @Sendable (Value) -> Void
  ) {
    declareLazy(keyPath, make, teardown: .sync(teardown))
  }

  private mutating func declareLazy<Value: Sendable>(
    _ keyPath: WritableKeyPath<InjectedValues, Value>,
    _ make: @escaping @Sendable () -> Value,
    teardown: LazyCell<Value>.Teardown
  ) {
    let declaration = LazyDeclaration(make: make, teardown: teardown)
    Self.probing(keyPath, with: declaration)
    guard let key = declaration.key, let makeBox = declaration.makeBox else {
      preconditionFailure(
        "Injection: lazy(\(keyPath)) needs an accessor whose getter reads one key, "
          + "such as `get { self[DatabaseKey.self] }`; this one reads none."
      )
    }
    _write(key, makeBox)
    ownsLazyValues = true
  }

  /// The values built on first use among this value's own overrides.
  var ownLazyValues: [any ScopedLazyValue] {
    ownBoxes.compactMap(\.scopedLazyValue)
  }
}

/// Learns the key behind a `lazy` declaration's accessor, and makes its box: the first key the
/// getter reads, whose value type must be the accessor's.
private final class LazyDeclaration<Value: Sendable>: KeyProbe {
  let make: @Sendable () -> Value
  let teardown: LazyCell<Value>.Teardown
  private(set) var key: UInt?
  private(set) var makeBox: ((Node?, OverrideSite) -> Node)?

  init(make: @escaping @Sendable () -> Value, teardown: LazyCell<Value>.Teardown) {
    self.make = make
    self.teardown = teardown
  }

  override func read<Key: InjectionKey>(_ keyType: Key.Type) {
    guard key == nil else { return }
    guard Key.Value.self == Value.self else {
      preconditionFailure(
        "Injection: lazy(_:_:) was given an accessor of \(Value.self) whose getter reads "
          + "\(Key.self), a key of \(Key.Value.self). Use an accessor that reads and writes one key."
      )
    }
    // The types are equal, checked above: these casts only restate them.
    let make = unsafeBitCast(self.make, to: (@Sendable () -> Key.Value).self)
    let teardown = unsafeBitCast(self.teardown, to: LazyCell<Key.Value>.Teardown.self)
    key = InjectedValues._key(Key.self)
    makeBox = { next, site in
      let cell = LazyCell(key: Key.self, site: site, make: make, teardown: teardown)
      return LazyBox<Key>(cell, next: next, site: site)
    }
  }
}

/// What a scope does with the values built on first use that its update closure declared.
protocol ScopedLazyValue: AnyObject, Sendable {
  /// Whether the teardown is asynchronous, so that a synchronous scope cannot run it.
  var hasAsynchronousTeardown: Bool { get }
  /// The key and declaration site, for messages.
  var declaration: String { get }
  /// Starts the scope: from now on a read builds the value, seeing the scope's values.
  func open(scope: Node?)
  /// Ends the scope and runs a synchronous teardown, if the value was built.
  func closeAndTearDown()
  /// Ends the scope and runs the teardown, if the value was built.
  func closeAndTearDown() async
}

extension LazyCell: ScopedLazyValue {
  var hasAsynchronousTeardown: Bool {
    if case .async = teardown { return true }
    return false
  }

  var declaration: String {
    site.kind == .scope ? "lazy(\(key)) at \(site.fileID):\(site.line)" : "lazy(\(key))"
  }

  func closeAndTearDown() {
    guard let value = close() else { return }
    switch teardown {
    case .none: break
    case .sync(let teardown): teardown(value)
    case .async: preconditionFailure("Injection: \(declaration) has an asynchronous teardown")
    }
  }

  func closeAndTearDown() async {
    guard let value = close() else { return }
    switch teardown {
    case .none: break
    case .sync(let teardown): teardown(value)
    case .async(let teardown): await teardown(value)
    }
  }
}

extension InjectedValues {
  /// Runs a synchronous scope's operation with `values` bound, opening and then tearing down the
  /// values built on first use that its update declared.
  @usableFromInline
  static func _withLazyValues<Result, Failure: Error>(
    _ values: InjectedValues,
    _ operation: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    let head = values._headForBinding
    let lazyValues = values.ownLazyValues
    for value in lazyValues where value.hasAsynchronousTeardown {
      preconditionFailure(
        "Injection: \(value.declaration) has an asynchronous teardown, which a synchronous "
          + "withInjectedValues cannot wait for. Pass a synchronous teardown, or use the "
          + "asynchronous withInjectedValues (if you wrote `await withInjectedValues` and the "
          + "operation contains no `await`, Swift chose the synchronous one: write "
          + "`operation: { () async in … }`)."
      )
    }
    for value in lazyValues { value.open(scope: head) }
    defer { for value in lazyValues { value.closeAndTearDown() } }
    return try _withHead(head, operation)
  }

  /// Runs an asynchronous scope's operation with `values` bound, opening and then tearing down
  /// the values built on first use that its update declared.
  @usableFromInline
  static func _withLazyValues<Result, Failure: Error>(
    _ values: InjectedValues,
    _ operation: () async throws(Failure) -> Result,
    isolation: isolated (any Actor)?
  ) async throws(Failure) -> Result {
    let head = values._headForBinding
    let lazyValues = values.ownLazyValues
    for value in lazyValues { value.open(scope: head) }
    let result: Swift.Result<Result, Failure>
    do {
      result = .success(
        try await _storage.withValue(head, operation: operation, isolation: isolation)
      )
    } catch {
      result = .failure(error as! Failure)  // `operation` throws only `Failure`.
    }
    for value in lazyValues { await value.closeAndTearDown() }
    return try result.get()
  }
}
