// MARK: - Values built once per scope

extension InjectedValues {
  /// In an update closure: overrides the dependency behind `keyPath` with a value that `make`
  /// builds on its first read in this scope (or in any task the scope starts), once, and that
  /// `teardown` tears down when the scope ends.
  ///
  /// ```swift
  /// try await withInjectedValues {
  ///   $0.lazy(\.database) {
  ///     Database(name: "test")
  ///   } teardown: {
  ///     await $0.close()
  ///   }
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
  ///   and before the scope function returns. A build still in flight on another thread is
  ///   waited for first. Several values are torn down latest-built first, and every value of the
  ///   scope stays readable until the last teardown returns. A synchronous `withInjectedValues`
  ///   cannot wait for
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
  @inlinable
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
  ///   $0.lazy(\.scratchDirectory) {
  ///     TemporaryDirectory()
  ///   } teardown: {
  ///     $0.remove()
  ///   }
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
  @inlinable @inline(__always)
  public mutating func lazy<Value: Sendable>(
    _ keyPath: WritableKeyPath<InjectedValues, Value>,
    _ make: @escaping @Sendable () -> Value,
    teardown: @escaping @Sendable (Value) -> Void
  ) {
    declareLazy(keyPath, make, teardown: .sync(teardown))
  }
}
