public import CInjectionSupport

// Entering a scope: the values an update closure builds, and binding them as a task's values.

extension InjectedValues {
  /// The values an update closure starts from: the parent's overrides, recorded as set in the
  /// scope at `fileID:line`, one scope deeper.
  @inlinable
  init(updating parent: Node?, fileID: StaticString, line: UInt) {
    var start = parent
    if let parent, parent.hops > Self.maximumParentHops { start = parent.compacted() }
    self.init(head: start)
    site = OverrideSite(.scope, depth: (start?.depth ?? 0) + 1, fileID: fileID, line: line)
  }

  /// The chain to bind as a task's values: this value's, compacted if lookups would walk long.
  @inlinable
  var _headForBinding: Node? {
    if let head, head.hops > Self.maximumBoundHops { return head.compacted() }
    return head
  }

  /// Runs `update` on values that start from the current task's, with a frame that lets
  /// seed-style accessors and every read in it reach them, and returns them.
  @inlinable
  static func _updating<Failure: Error>(
    fileID: StaticString,
    line: UInt,
    with update: (inout InjectedValues) throws(Failure) -> Void
  ) throws(Failure) -> InjectedValues {
    var storage = UpdateStorage(InjectedValues(updating: _resolvedHead, fileID: fileID, line: line))
    try storage.withPointers { (values) throws(Failure) in
      let frame = ContextFrame(
        .update,
        owner: ContextFrame.currentTask,
        values: values,
        previous: injection_context_get()
      )
      try ContextFrame.with(frame) { () throws(Failure) in try update(&values.pointee) }
    }
    var values = InjectedValues(head: nil)
    swap(&values, &storage.values)  // moved out, not copied
    return values
  }

  /// Runs `operation` with the task's values bound to the chain at `head`.
  ///
  /// If this thread is inside an update closure, a default or a probe, the operation must not
  /// see it: a frame says that reads see the task's values again.
  @inlinable
  static func _withHead<Result, Failure: Error>(
    _ head: Node?,
    _ operation: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    do {
      if ContextFrame.top == nil { return try _storage.withValue(head, operation: operation) }
      let frame = ContextFrame(.operation, previous: injection_context_get())
      return try ContextFrame.with(frame) { try _storage.withValue(head, operation: operation) }
    } catch {
      throw error as! Failure  // `operation` throws only `Failure`.
    }
  }

  /// Runs the asynchronous `operation` with the task's values bound to the chain at `head`.
  @inlinable
  static func _withHead<Result, Failure: Error>(
    _ head: Node?,
    _ operation: () async throws(Failure) -> Result,
    isolation: isolated (any Actor)?
  ) async throws(Failure) -> Result {
    do {
      return try await _storage.withValue(head, operation: operation, isolation: isolation)
    } catch {
      throw error as! Failure  // `operation` throws only `Failure`.
    }
  }

  /// Runs a synchronous scope's operation with `values` bound, opening and then tearing down the
  /// values built on first use that its update declared. The teardowns run while `values` are
  /// still bound, so they see the scope's overrides.
  @inlinable
  static func _withLazyValues<Result, Failure: Error>(
    _ values: InjectedValues,
    _ operation: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    var values = values
    let head = values._openLazyValues(synchronously: true)
    return try _withHead(head) { () throws(Failure) -> Result in
      defer { values._closeLazyValues() }
      return try operation()
    }
  }

  /// Runs an asynchronous scope's operation with `values` bound, opening and then tearing down
  /// the values built on first use that its update declared. The teardowns run while `values`
  /// are still bound, so they see the scope's overrides.
  @inlinable
  static func _withLazyValues<Result, Failure: Error>(
    _ values: InjectedValues,
    _ operation: () async throws(Failure) -> Result,
    isolation: isolated (any Actor)?
  ) async throws(Failure) -> Result {
    var values = values
    let head = values._openLazyValues(synchronously: false)
    let result = await _storage.withValue(
      head,
      operation: { () async -> Swift.Result<Result, Failure> in
        let result: Swift.Result<Result, Failure>
        do throws(Failure) {
          result = .success(try await operation())
        } catch {
          result = .failure(error)
        }
        await values._closeLazyValues()
        return result
      },
      isolation: isolation
    )
    return try result.get()
  }

  /// Starts the scope of the values built on first use that this value declared, and returns
  /// the head to bind. A synchronous scope cannot wait for an asynchronous teardown, so there
  /// declaring one stops the program, before the operation runs.
  ///
  /// Each scope builds its own value: a declaration that another scope has already started (a
  /// value with a `lazy` declaration bound with `$0 = v` in two scopes) is declared again here,
  /// with a cell of its own.
  @usableFromInline
  mutating func _openLazyValues(synchronously: Bool) -> Node? {
    var taken: [Node] = []  // allocates only if a declaration was started elsewhere
    for box in ownBoxes where box.isLazy {
      let value = box.scopedLazyValue.unsafelyUnwrapped  // a lazy box has a cell
      if synchronously && value.hasAsynchronousTeardown {
        fatalError(
          "Injection: \(value.declaration) has an asynchronous teardown, which a synchronous "
            + "withInjectedValues cannot wait for. Pass a synchronous teardown, or call "
            + "withInjectedValues from an asynchronous function with `await`."
        )
      }
      if !value.claim() { taken.append(box) }
    }
    for box in taken {
      _write(box.key) { next, site in box.redeclared(next: next, site: site) }
    }
    if !taken.isEmpty {
      for box in ownBoxes where box.isLazy {
        _ = box.scopedLazyValue.unsafelyUnwrapped.claim()  // the fresh cells; the rest are ours
      }
    }
    let head = _headForBinding
    for value in ownLazyValues { value.open(scope: head) }
    return head
  }

  /// Ends the scope of the values built on first use that this value declared, and runs their
  /// synchronous teardowns.
  @usableFromInline
  func _closeLazyValues() {
    for value in ownLazyValues { value.closeAndTearDown() }
  }

  /// Ends the scope of the values built on first use that this value declared, and runs their
  /// teardowns.
  @usableFromInline
  func _closeLazyValues() async {
    for value in ownLazyValues { await value.closeAndTearDown() }
  }
}
