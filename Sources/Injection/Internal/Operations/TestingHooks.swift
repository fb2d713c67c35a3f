// The minimal surface the InjectionTesting module needs. `package` access: not public API.

extension InjectedValues {
  /// Returns these values with every fallback read and global change reported to `observer`
  /// (strict mode). Scopes entered inside keep the observer, as do the tasks they create.
  package func _observed(by observer: any InjectionFallbackObserver) -> InjectedValues {
    var values = self
    values.head = ObserverNode(observer, next: head)
    return values
  }

  /// The strict-mode observer of these values, if any.
  package var _observer: (any InjectionFallbackObserver)? { head?.observer }

  /// Runs an update closure that may suspend, and returns the values it built.
  ///
  /// The values being built live in memory of their own, and a marker that stands for them is
  /// bound as the task's values while the closure runs (see `UpdateMarker`): every read of this
  /// task sees them, seed-style setters write into them, and no other task ever reaches them.
  package static func _updatingAsynchronously(
    fileID: StaticString,
    line: UInt,
    with update: (inout InjectedValues) async throws -> Void,
    isolation: isolated (any Actor)? = #isolation
  ) async throws -> InjectedValues {
    let parent = resolvedHead
    let values = UnsafeMutablePointer<InjectedValues>.allocate(capacity: 1)
    values.initialize(to: InjectedValues(updating: parent, fileID: fileID, line: line))
    defer {
      values.deinitialize(count: 1)
      values.deallocate()
    }
    let marker = UpdateMarker(values: values, next: parent)
    defer { marker.deactivate() }
    try await taskHeadLocal.withValue(
      TaskHead(marker),
      operation: { try await update(&values.pointee) },
      isolation: isolation
    )
    return values.pointee
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
      try await taskHeadLocal.withValue(
        TaskHead(values.headForBinding),
        operation: operation,
        isolation: isolation
      )
    }
  }
}
