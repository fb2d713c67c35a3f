// The minimal surface the InjectionTesting module needs. `package` access: not public API.

extension InjectedValues {
  /// Returns these values with every fallback read and global change reported to `observer`
  /// (strict mode). Scopes entered inside keep the observer, as do the tasks they create.
  package func _observed(by observer: any InjectionFallbackObserver) -> InjectedValues {
    InjectedValues(head: ObserverNode(observer, next: chain))
  }

  /// The strict-mode observer of these values, if any.
  package var _observer: (any InjectionFallbackObserver)? { chain?.observer }

  /// Runs an update closure that may suspend, on `$0` as `updating` does, and returns the values
  /// it built. The builder is found through the task's values, bound to it while `update` runs,
  /// since the closure may change threads.
  package static func _updatingAsynchronously(
    fileID: StaticString,
    line: UInt,
    with update: (inout InjectedValues) async throws -> Void,
    isolation: isolated (any Actor)? = #isolation
  ) async throws -> InjectedValues {
    let start = InjectedValues(updating: _visibleHead, fileID: fileID, line: line)
    var builder = UpdateBuilder(starting: start, synchronous: false)
    var values = InjectedValues(builder: builder)
    do {
      try await taskValues.withValue(
        TaskValues(storage: builder),
        operation: { try await update(&values) },
        isolation: isolation
      )
    } catch {
      _ = finishUpdate(&builder, final: &values)
      throw error
    }
    return finishUpdate(&builder, final: &values)
  }

  /// Runs `operation` in the scope that `values` (from `updating`) describe: bound as the task's
  /// values, with the values built on first use that the update declared opened, and torn down
  /// when the operation returns or throws.
  package static func _withScope(
    _ values: InjectedValues,
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> Void
  ) async throws {
    if values.ownsLazyValues {
      try await withLazyValues(values, operation, isolation: isolation)
    } else {
      try await withHead(values.headForBinding, operation, isolation: isolation)
    }
  }
}
