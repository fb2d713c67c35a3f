// MARK: - Scoping overrides

/// Runs `operation` with the dependencies that `update` overrides, in the current task and
/// every task it creates in structured ways.
///
/// `update` receives the values visible at this point, so `$0.count += 1` works, and changes
/// them for this scope only; nothing global is touched, however many scopes run at once.
///
/// ```swift
/// withInjectedValues {
///   $0.greeting = "Hi"
/// } operation: {
///   InjectedValues[\.greeting]   // "Hi"
/// }
/// InjectedValues[\.greeting]     // back to the global value or the default
/// ```
///
/// Scopes nest and layer per key: an inner scope that overrides one key still sees the outer
/// scope's overrides of the others. Where the scope is not inherited (`Task.detached`, GCD,
/// escaping callbacks), re-enter a snapshot with ``withInjectedValues(_:operation:)``.
///
/// `update` is synchronous and runs before `operation`, in the current task. While it runs,
/// every read in it sees the values being built: through `$0`, `InjectedValues.current`,
/// `InjectedValues[\.x]` and `@Injected`. (After `$0 = snapshot`, only reads of `$0` itself
/// see the snapshot: see "Update closures" in the rules.)
///
/// Errors thrown by `update` or `operation` propagate, and the scope ends either way.
///
/// - Parameters:
///   - update: Changes the overrides for this scope. Use its argument only inside it.
///   - operation: The code to run with the overrides.
///   - fileID: The file recorded as where the overrides were set; leave the default.
///   - line: The line recorded as where the overrides were set; leave the default.
/// - Returns: What `operation` returns.
/// - Throws: What `update` or `operation` throws.
@inlinable
@discardableResult
@_disfavoredOverload  // In an asynchronous context, the asynchronous form is chosen.
public func withInjectedValues<Result, Failure: Error>(
  _ update: (inout InjectedValues) throws(Failure) -> Void,
  operation: () throws(Failure) -> Result,
  fileID: StaticString = #fileID,
  line: UInt = #line
) throws(Failure) -> Result {
  let values = try InjectedValues.updating(fileID: fileID, line: line, with: update)
  defer { withExtendedLifetime(values) {} }  // copies of `$0` see them while the scope runs
  if values.ownsLazyValues { return try InjectedValues.withLazyValues(values, operation) }
  return try InjectedValues.withHead(values.headForBinding, operation)
}

/// Runs the asynchronous `operation` with the dependencies that `update` overrides, in the
/// current task and every task it creates in structured ways.
///
/// Child tasks, task groups, `async let` and `Task {}` started inside `operation` see the
/// overrides; `Task.detached` does not.
///
/// ```swift
/// let greeting = await withInjectedValues {
///   $0.greeting = "Hi"
/// } operation: {
///   // "Hi": `Task {}` inherits the scope.
///   await Task { InjectedValues[\.greeting] }.value
/// }
/// ```
///
/// The operation runs on the caller's actor, so code on an actor can use its own state in it.
/// `update` is synchronous, as in the synchronous form; only the operation may suspend.
///
/// - Parameters:
///   - update: Changes the overrides for this scope. Use its argument only inside it.
///   - operation: The code to run with the overrides.
///   - isolation: The actor the operation runs on; leave the default, the caller's.
///   - fileID: The file recorded as where the overrides were set; leave the default.
///   - line: The line recorded as where the overrides were set; leave the default.
/// - Returns: What `operation` returns.
/// - Throws: What `update` or `operation` throws.
@inlinable
@discardableResult
public func withInjectedValues<Result, Failure: Error>(
  _ update: (inout InjectedValues) throws(Failure) -> Void,
  operation: () async throws(Failure) -> Result,
  isolation: isolated (any Actor)? = #isolation,
  fileID: StaticString = #fileID,
  line: UInt = #line
) async throws(Failure) -> Result {
  let values = try InjectedValues.updating(fileID: fileID, line: line, with: update)
  defer { withExtendedLifetime(values) {} }  // copies of `$0` see them while the scope runs
  if values.ownsLazyValues {
    return try await InjectedValues.withLazyValues(values, operation, isolation: isolation)
  }
  return try await InjectedValues.withHead(values.headForBinding, operation, isolation: isolation)
}

// MARK: - Re-entering a snapshot

/// Runs `operation` with the overrides of a snapshot taken earlier with
/// ``InjectedValues/current``.
///
/// Use it where a scope is not inherited: a `DispatchQueue` block, a stored callback, a
/// `Task.detached`.
///
/// ```swift
/// let values = InjectedValues.current
/// DispatchQueue.global().async {
///   withInjectedValues(values) {
///     InjectedValues[\.greeting]   // as in the task that took the snapshot
///   }
/// }
/// ```
///
/// The snapshot replaces the current overrides for the operation; it does not merge with them.
///
/// - Parameters:
///   - values: The overrides to run with.
///   - operation: The code to run with them.
/// - Returns: What `operation` returns.
/// - Throws: What `operation` throws.
@inlinable
@discardableResult
public func withInjectedValues<Result, Failure: Error>(
  _ values: InjectedValues,
  operation: () throws(Failure) -> Result
) throws(Failure) -> Result {
  try InjectedValues.withHead(values.headForBinding, operation)
}

/// Runs the asynchronous `operation` with the overrides of a snapshot taken earlier with
/// ``InjectedValues/current``.
///
/// ```swift
/// let values = InjectedValues.current
/// Task.detached {
///   await withInjectedValues(values) {
///     await fetchGreeting()   // sees the snapshot's overrides
///   }
/// }
/// ```
///
/// - Parameters:
///   - values: The overrides to run with.
///   - operation: The code to run with them.
///   - isolation: The actor the operation runs on; leave the default, the caller's.
/// - Returns: What `operation` returns.
/// - Throws: What `operation` throws.
@inlinable
@discardableResult
public func withInjectedValues<Result, Failure: Error>(
  _ values: InjectedValues,
  operation: () async throws(Failure) -> Result,
  isolation: isolated (any Actor)? = #isolation
) async throws(Failure) -> Result {
  try await InjectedValues.withHead(values.headForBinding, operation, isolation: isolation)
}
