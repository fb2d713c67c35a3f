public import CInjectionSupport

// Entering a scope: the values an update closure builds, and binding them as a task's values.

extension InjectedValues {
  /// The values an update closure starts from: the parent's overrides, recorded as set in the
  /// scope at `fileID:line`, one scope deeper.
  @inlinable
  init(updating parent: Node?, fileID: StaticString, line: UInt) {
    var start = parent
    if let parent, parent.hops > Node.maximumParentHops { start = parent.compacted() }
    self.init(head: start)
    site = OverrideSite(.scope, depth: (start?.depth ?? 0) + 1, fileID: fileID, line: line)
  }

  /// The chain to bind as a task's values: this value's, compacted if lookups would walk long.
  @inlinable
  var headForBinding: Node? {
    if let head, head.hops > Node.maximumBoundHops { return head.compacted() }
    return head
  }

  /// `headForBinding`, moved out of this value, which is left without overrides: the binding
  /// takes this value's reference to its chain instead of retaining another one.
  @inlinable
  mutating func takeHeadForBinding() -> Node? {
    guard let head = head.take() else { return nil }
    return head.hops > Node.maximumBoundHops ? head.compacted() : head
  }

  /// Runs `update` on values that start from the current task's, with a frame that lets
  /// seed-style accessors and every read in it reach them, and returns them.
  @inlinable
  static func updating<Failure: Error>(
    fileID: StaticString,
    line: UInt,
    with update: (inout InjectedValues) throws(Failure) -> Void
  ) throws(Failure) -> InjectedValues {
    var values = InjectedValues(updating: resolvedHead, fileID: fileID, line: line)
    try _withUnprotectedUnsafeMutablePointer(to: &values) { (pointer) throws(Failure) in
      try ContextFrame.withUpdate(of: pointer) { () throws(Failure) in try update(&pointer.pointee)
      }
    }
    return values
  }

  /// Runs `operation` with the task's values bound to the chain at `head`.
  ///
  /// If this thread is inside an update closure, a default or a probe, the operation must not
  /// see it: a frame says that reads see the task's values again.
  @inlinable
  static func withHead<Result, Failure: Error>(
    _ head: consuming Node?,
    _ operation: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    do {
      let bound = TaskHead(head)
      // Through the published address, as reads reach the task-local (see `taskHeadKey`).
      if ContextFrame.top == nil {
        return try taskHeadKey._withUnsafeGuaranteedRef {
          try $0.withValue(bound, operation: operation)
        }
      }
      let frame = ContextFrame(.operation, previous: injection_context_get())
      return try ContextFrame.with(frame) {
        try taskHeadKey._withUnsafeGuaranteedRef { try $0.withValue(bound, operation: operation) }
      }
    } catch {
      throw error as! Failure  // `operation` throws only `Failure`.
    }
  }

  /// Runs the asynchronous `operation` with the task's values bound to the chain at `head`.
  @inlinable
  static func withHead<Result, Failure: Error>(
    _ head: consuming Node?,
    _ operation: () async throws(Failure) -> Result,
    isolation: isolated (any Actor)?
  ) async throws(Failure) -> Result {
    do {
      return try await taskHeadLocal.withValue(
        TaskHead(head),
        operation: operation,
        isolation: isolation
      )
    } catch {
      throw error as! Failure  // `operation` throws only `Failure`.
    }
  }

  /// Runs a synchronous scope's operation with `values` bound, opening and then tearing down the
  /// values built on first use that its update declared. The teardowns run while `values` are
  /// still bound, so they see the scope's overrides.
  @inlinable
  static func withLazyValues<Result, Failure: Error>(
    _ values: InjectedValues,
    _ operation: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    var values = values
    let head = values.openLazyValues(synchronously: true)
    return try withHead(head) { () throws(Failure) -> Result in
      defer { values.closeLazyValues() }
      return try operation()
    }
  }

  /// Runs an asynchronous scope's operation with `values` bound, opening and then tearing down
  /// the values built on first use that its update declared. The teardowns run while `values`
  /// are still bound, so they see the scope's overrides.
  @inlinable
  static func withLazyValues<Result, Failure: Error>(
    _ values: InjectedValues,
    _ operation: () async throws(Failure) -> Result,
    isolation: isolated (any Actor)?
  ) async throws(Failure) -> Result {
    var values = values
    let head = values.openLazyValues(synchronously: false)
    let result = await taskHeadLocal.withValue(
      TaskHead(head),
      operation: { () async -> Swift.Result<Result, Failure> in
        let result: Swift.Result<Result, Failure>
        do throws(Failure) {
          result = .success(try await operation())
        } catch {
          result = .failure(error)
        }
        await values.closeLazyValues()
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
  mutating func openLazyValues(synchronously: Bool) -> Node? {
    let head = headForBinding
    var taken: [Node]?  // made only if a declaration was started elsewhere
    for box in ownBoxes where box._withUnsafeGuaranteedRef({ $0.kind == .lazyBox }) {
      let started = box._withUnsafeGuaranteedRef {
        $0.startLazyValue(seeing: head, synchronously: synchronously)
      }
      if !started { taken = (taken ?? []) + [box.takeUnretainedValue()] }
    }
    guard let taken else { return head }
    // Another scope started some of these declarations: they get cells of their own, which
    // changes this value's chain, so every cell of this scope starts again with the new one.
    for box in taken {
      let (next, site) = startWrite(of: box.key)
      finishWrite(box.redeclared(next: consume next, site: site))
    }
    let newHead = headForBinding
    for box in ownBoxes where box._withUnsafeGuaranteedRef({ $0.kind == .lazyBox }) {
      box._withUnsafeGuaranteedRef { $0.restartLazyValue(seeing: newHead) }
    }
    return newHead
  }

  /// Ends the scope of the values built on first use that this value declared, and runs their
  /// synchronous teardowns.
  ///
  /// The teardowns run first, the latest-built value first, so that a value is torn down before
  /// the values its factory read. Until they have all run, every value of the scope can be read,
  /// by the teardowns too: one built already, also after its own teardown, and one not built
  /// yet, which that read builds and which is then torn down in its turn. Then the values close,
  /// and later reads stop the program.
  @usableFromInline
  func closeLazyValues() {
    // Unretained: this value's chain keeps its boxes alive. One value, the usual case, is torn
    // down and closed by `endLazyValue` alone, after one walk of the own boxes.
    var only: Unmanaged<Node>?
    for box in ownBoxes where box._withUnsafeGuaranteedRef({ $0.kind == .lazyBox }) {
      if only != nil { return closeSeveralLazyValues() }
      only = box
    }
    only?._withUnsafeGuaranteedRef { $0.endLazyValue() }
  }

  /// `closeLazyValues()` for more than one value: the teardowns, latest-built first, then the
  /// closing of each value.
  private func closeSeveralLazyValues() {
    while let box = latestBuiltLazyValue() {
      box._withUnsafeGuaranteedRef { $0.tearDownLazyValue() }
    }
    for box in ownBoxes where box._withUnsafeGuaranteedRef({ $0.kind == .lazyBox }) {
      box._withUnsafeGuaranteedRef { $0.endLazyValue() }
    }
  }

  /// Ends the scope of the values built on first use that this value declared, and runs their
  /// teardowns, as the synchronous `closeLazyValues()` does.
  @usableFromInline
  func closeLazyValues() async {
    var only: Node?
    for box in ownBoxes where box._withUnsafeGuaranteedRef({ $0.kind == .lazyBox }) {
      if only != nil { return await closeSeveralLazyValues() }
      only = box.takeUnretainedValue()
    }
    await only?.endLazyValue()
  }

  /// The asynchronous `closeSeveralLazyValues()`.
  private func closeSeveralLazyValues() async {
    while let box = latestBuiltLazyValue() {
      await box.takeUnretainedValue().tearDownLazyValue()
    }
    for box in ownBoxes where box._withUnsafeGuaranteedRef({ $0.kind == .lazyBox }) {
      await box.takeUnretainedValue().endLazyValue()
    }
  }

  /// Of the values built on first use that this value declared, the one built last whose
  /// teardown has not run.
  private func latestBuiltLazyValue() -> Unmanaged<Node>? {
    var latest: (box: Unmanaged<Node>, order: UInt)?
    for box in ownBoxes where box._withUnsafeGuaranteedRef({ $0.kind == .lazyBox }) {
      let order = box._withUnsafeGuaranteedRef { $0.pendingTeardownOrder }
      if order > (latest?.order ?? 0) { latest = (box, order) }
    }
    return latest?.box
  }

  // MARK: - Re-entering a snapshot under the caller's overrides

  /// The chain that resolves each key as the current task's overrides do, else as `values`'s.
  ///
  /// Built once per entry, so the read path is untouched: an index of the caller's visible
  /// boxes, carrying the caller's strict-mode observer, linked to an index of the snapshot's.
  static func merged(_ values: InjectedValues) -> Node? {
    let caller = resolvedHead
    guard let snapshot = values.head else { return caller }
    guard let caller else { return values.headForBinding }
    // The caller's chain already contains the snapshot's: its overrides win, the rest is there.
    var node: Node? = caller
    while let current = node {
      if current === snapshot { return caller }
      node = current.next
    }
    return IndexNode(indexing: caller).relinked(to: IndexNode(indexing: snapshot))
  }
}
