// MARK: - Re-entering a snapshot under the caller's overrides

/// Runs `operation` with a snapshot's overrides under the current task's: the caller's
/// overrides win, and the snapshot supplies every key they leave alone.
///
/// This is how an object keeps the dependencies of the scope it was created in for its later
/// work (a model-lived dependency). It takes ``InjectedValues/current`` when it is created, and
/// runs each later piece of work in `withInjectedValues(merging:)`:
///
/// ```swift
/// final class ProfileModel: Sendable {
///   // The values of the scope the model was created in:
///   private let values = InjectedValues.current
///
///   func title() -> String {
///     withInjectedValues(merging: values) { InjectedValues[\.greeting] }
///   }
/// }
///
/// let model = withInjectedValues { $0.greeting = "Hi" } operation: {
///   ProfileModel()
/// }
/// model.title()  // "Hi": the model's scope
/// withInjectedValues { $0.greeting = "Yo" } operation: {
///   model.title()  // "Yo": the caller's scope wins
/// }
/// ```
///
/// - The caller's overrides win, all of them, including those of scopes around the caller's
///   own (a test trait's, for example).
/// - The snapshot supplies the overrides of every other key.
/// - Keys neither overrides fall back to the global value, then the default, as usual.
/// - Objects created inside `operation` take ``InjectedValues/current``, the merged values, so
///   they inherit the snapshot's overrides too.
/// - In strict mode (a test's `.strictInjection`), the caller's observer stays in effect.
///
/// ``withInjectedValues(_:operation:)`` is the other way to re-enter a snapshot: it replaces
/// the caller's overrides instead of merging with them.
///
/// Entering builds one index of the caller's overrides over one index of the snapshot's, so
/// that reads inside cost what they cost in any scope. Where the caller's chain still contains
/// the snapshot's (the object is used in the scope that created it), nothing is built.
///
/// - Parameters:
///   - values: The snapshot that supplies the overrides the caller's leave alone.
///   - operation: The code to run with the merged overrides.
/// - Returns: What `operation` returns.
/// - Throws: What `operation` throws.
@discardableResult
public func withInjectedValues<Result, Failure: Error>(
  merging values: InjectedValues,
  operation: () throws(Failure) -> Result
) throws(Failure) -> Result {
  try InjectedValues.withHead(InjectedValues.merged(values), operation)
}

/// Runs the asynchronous `operation` with a snapshot's overrides under the current task's: the
/// caller's overrides win, and the snapshot supplies every key they leave alone.
///
/// The asynchronous form of ``withInjectedValues(merging:operation:)``; child tasks, task
/// groups, `async let` and `Task {}` started inside see the merged overrides.
///
/// ```swift
/// final class FeedModel: Sendable {
///   private let values = InjectedValues.current
///
///   func refresh() async -> String {
///     await withInjectedValues(merging: values) {
///       // The model's scope, or the caller's:
///       await Task { InjectedValues[\.greeting] }.value
///     }
///   }
/// }
/// ```
///
/// - Parameters:
///   - values: The snapshot that supplies the overrides the caller's leave alone.
///   - operation: The code to run with the merged overrides.
///   - isolation: The actor the operation runs on; leave the default, the caller's.
/// - Returns: What `operation` returns.
/// - Throws: What `operation` throws.
@discardableResult
public func withInjectedValues<Result, Failure: Error>(
  merging values: InjectedValues,
  operation: () async throws(Failure) -> Result,
  isolation: isolated (any Actor)? = #isolation
) async throws(Failure) -> Result {
  try await InjectedValues.withHead(
    InjectedValues.merged(values),
    operation,
    isolation: isolation
  )
}
