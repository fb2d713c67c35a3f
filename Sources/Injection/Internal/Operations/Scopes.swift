// Entering a scope: the values an update closure builds, and binding them as a task's values.

extension InjectedValues {
  /// The values an update closure starts from: the parent's overrides, recorded as set in the
  /// scope at `fileID:line`, one scope deeper.
  @inlinable
  init(updating parent: consuming Node?, fileID: StaticString, line: UInt) {
    var start = parent
    if let parent = start, parent.hops > Node.maximumParentHops { start = parent.compacted() }
    self.init(head: start)
    site = OverrideSite(.scope, depth: (start?.depth ?? 0) + 1, fileID: fileID, line: line)
  }

  /// The chain to bind as a task's values: this value's, compacted if lookups would walk long.
  @inlinable
  var headForBinding: Node? {
    guard let head else { return nil }
    if head.kind == .builder { return Self.headForBinding(resolving: head) }
    return head.hops > Node.maximumBoundHops ? head.compacted() : head
  }

  /// `headForBinding`, moved out of these values, which are left without overrides: the
  /// binding takes their reference to the chain instead of retaining another one.
  @inlinable
  mutating func takeHeadForBinding() -> Node? {
    guard let head = head.take() else { return nil }
    if head.kind == .builder { return Self.headForBinding(resolving: head) }
    return head.hops > Node.maximumBoundHops ? head.compacted() : head
  }

  /// `headForBinding` of a copy of `$0`: the chain its builder stands for here.
  @usableFromInline
  static func headForBinding(resolving builder: Node) -> Node? {
    InjectedValues(head: UpdateBuilder.resolving(builder)).headForBinding
  }

  /// Runs `update` on `$0`, values that start from the current code's and whose head is a new
  /// `UpdateBuilder`, with a frame that lets seed-style accessors and every read in it reach the
  /// builder, and returns the values it built.
  @inlinable
  static func updating<Failure: Error>(
    fileID: StaticString,
    line: UInt,
    with update: (inout InjectedValues) throws(Failure) -> Void
  ) throws(Failure) -> InjectedValues {
    let task = ContextFrame.currentTask
    let builder = UpdateBuilder.make(
      starting: InjectedValues(updating: resolvedHead, fileID: fileID, line: line),
      synchronous: true
    )
    var values = InjectedValues(head: builder)
    do {
      let frame = ContextFrame(.update, head: builder, task: task)
      try ContextFrame.with(frame) { () throws(Failure) in try update(&values) }
    } catch {
      _ = finishUpdate(builder, final: &values)
      throw error
    }
    return finishUpdate(builder, final: &values)
  }

  /// Ends an update closure of `builder` whose `$0` holds `final`, and returns the values of the
  /// scope: those built, or, if the closure assigned `$0` other values, those values with the
  /// closure's seed-style writes on top (they could not see `$0`).
  @inlinable
  static func finishUpdate(
    _ builder: consuming UpdateBuilder,
    final: inout InjectedValues
  ) -> InjectedValues {
    if final.head === builder {
      final.head = nil
    } else {
      builder.values = replayingSeedWrites(of: builder, onto: final)
    }
    return UpdateBuilder.finish(builder)
  }

  /// `assigned`, the values that the closure of `builder` assigned to `$0`, with the closure's
  /// seed-style writes on top.
  @usableFromInline
  static func replayingSeedWrites(
    of builder: UpdateBuilder,
    onto assigned: InjectedValues
  ) -> InjectedValues {
    var result = assigned.resolvingBuilder()
    let (boxes, site) = builder.takeSeedWrites()
    if result.site == nil { result.site = site }  // the replayed writes are this scope's
    for box in boxes {
      let (next, site) = result.startWrite(of: box.key)
      result.finishWrite(box.relinked(to: next, site: site))
    }
    return result
  }

  /// Runs the asynchronous `update` on `$0` as `updating` does; the builder is found through
  /// the task's values, bound to it while `update` runs, since the closure may change threads.
  static func updatingAsynchronously(
    fileID: StaticString,
    line: UInt,
    with update: (inout InjectedValues) async throws -> Void,
    isolation: isolated (any Actor)?
  ) async throws -> InjectedValues {
    let builder = UpdateBuilder.make(
      starting: InjectedValues(updating: resolvedHead, fileID: fileID, line: line),
      synchronous: false
    )
    var values = InjectedValues(head: builder)
    do {
      try await taskHeadLocal.withValue(
        TaskHead(builder),
        operation: { try await update(&values) },
        isolation: isolation
      )
    } catch {
      _ = finishUpdate(builder, final: &values)
      throw error
    }
    return finishUpdate(builder, final: &values)
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
      if ContextFrame.top == nil {
        return try taskHeadLocal.withValue(bound, operation: operation)
      }
      return try ContextFrame.with(ContextFrame(.operation)) {
        try taskHeadLocal.withValue(bound, operation: operation)
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

  // MARK: - Scopes with values built on first use

  /// Runs a synchronous scope's operation with `values` bound, opening and then ending the
  /// values built on first use that its update declared. They end while `values` are still
  /// bound, so teardowns see the scope's overrides.
  @inlinable
  static func withLazyValues<Result, Failure: Error>(
    _ values: InjectedValues,
    _ operation: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    var values = values
    let lazyValues = values.openLazyValues(synchronously: true)
    return try withHead(lazyValues.head) { () throws(Failure) -> Result in
      defer { lazyValues.end() }
      return try operation()
    }
  }

  /// Runs an asynchronous scope's operation with `values` bound, opening and then ending the
  /// values built on first use that its update declared, as the synchronous form does.
  @inlinable
  static func withLazyValues<Result, Failure: Error>(
    _ values: InjectedValues,
    _ operation: () async throws(Failure) -> Result,
    isolation: isolated (any Actor)?
  ) async throws(Failure) -> Result {
    var values = values
    let lazyValues = values.openLazyValues(synchronously: false)
    let result = await taskHeadLocal.withValue(
      TaskHead(lazyValues.head),
      operation: { () async -> Swift.Result<Result, Failure> in
        let result: Swift.Result<Result, Failure>
        do throws(Failure) {
          result = .success(try await operation())
        } catch {
          result = .failure(error)
        }
        await lazyValues.end()
        return result
      },
      isolation: isolation
    )
    return try result.get()
  }

  /// Starts the scope of the values built on first use that this value declared, and returns
  /// them. A synchronous scope cannot wait for an asynchronous teardown, so there declaring one
  /// stops the program, before the operation runs.
  ///
  /// Each scope builds its own value: a declaration that another scope has already started (a
  /// value with a `lazy` declaration bound with `$0 = v` in two scopes) is declared again here,
  /// with a cell of its own. That changes this value's chain, so every cell then sees the new one.
  @usableFromInline
  mutating func openLazyValues(synchronously: Bool) -> LazyValues {
    var taken: [Node] = []
    var cells = LazyValues.Cells()
    let head = headForBinding
    for box in ownBoxes {
      let node = box.takeUnretainedValue()
      guard let cell = LazyBox.lifecycle(of: node) else { continue }
      if synchronously, cell.hasAsynchronousTeardown { Self.stopForAsynchronousTeardown(cell) }
      if cell.open(seeing: head) { cells.append(cell) } else { taken.append(node) }
    }
    guard !taken.isEmpty else { return LazyValues(head: head, first: cells.first) }
    for node in taken {
      let (next, site) = startWrite(of: node.key)
      let box = LazyBox.lifecycle(of: node)!.redeclared(next: consume next, site: site)
      finishWrite(box)
      let cell = LazyBox.lifecycle(of: box)!
      _ = cell.open(seeing: nil)
      cells.append(cell)
    }
    let newHead = headForBinding
    cells.first?.forEachInScope { $0.reopen(seeing: newHead) }
    return LazyValues(head: newHead, first: cells.first)
  }

  static func stopForAsynchronousTeardown(_ cell: LazyLifecycle) -> Never {
    fatalError(
      "Injection: \(cell.declaration) has an asynchronous teardown, which a synchronous "
        + "withInjectedValues cannot wait for. Pass a synchronous teardown, or call "
        + "withInjectedValues from an asynchronous function with `await`. (In top-level code, "
        + "such as main.swift, Swift picks the synchronous form even after `await`, and warns "
        + "that no async operations occur there: write the operation as `{ () async in … }`, "
        + "or move the call into an asynchronous function.)"
    )
  }

  // MARK: - Re-entering a snapshot under the caller's overrides

  /// The chain that resolves each key as the current task's overrides do, else as `values`'s.
  ///
  /// Built once per entry, so the read path is untouched: an index of the caller's visible
  /// boxes, carrying the caller's strict-mode observer, linked to an index of the snapshot's.
  static func merged(_ values: InjectedValues) -> Node? {
    let caller = resolvedHead
    let values = values.resolvingBuilder()
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

/// The values built on first use that one scope opened, and the chain it binds.
@usableFromInline
struct LazyValues {
  /// The chain the cells were opened with: the one to bind for the operation.
  @usableFromInline let head: Node?
  /// The cell the scope opened first; it links to the others, in the order the scope opened
  /// them (`LazyLifecycle.nextOpened`).
  let first: LazyLifecycle?

  /// The list a scope builds as it opens its cells.
  struct Cells {
    private(set) var first: LazyLifecycle?
    private var last: LazyLifecycle?

    /// Adds `cell` at the end.
    mutating func append(_ cell: LazyLifecycle) {
      if let last { last.nextOpened = cell } else { first = cell }
      last = cell
    }
  }

  /// Calls `body` with each cell, in the order the scope opened them.
  func forEach(_ body: (LazyLifecycle) -> Void) {
    first?.forEachInScope(body)
  }

  /// Ends the cells, as `LazyState` describes: the teardowns, latest-built first, while every
  /// value stays readable (builds in flight on other threads are waited for, and a value a
  /// teardown builds is torn down in its turn); then every cell closes, in the order the scope
  /// opened them.
  @usableFromInline
  func end() {
    while let next = nextToTearDown() { next.tearDown() }
    forEach { if $0.close() { $0.tearDown() } }
  }

  /// The asynchronous `end()`.
  @usableFromInline
  func end() async {
    while let next = nextToTearDown() { await next.tearDown() }
    var cell = first
    while let current = cell {
      if current.close() { await current.tearDown() }
      cell = current.nextOpened
    }
  }

  /// The built value whose teardown is due first, once no build is in flight: the latest built.
  private func nextToTearDown() -> LazyLifecycle? {
    var latest: (cell: LazyLifecycle, order: UInt)?
    forEach { cell in
      if let order = cell.pendingTeardownOrder(), order > latest?.order ?? 0 {
        latest = (cell, order)
      }
    }
    return latest?.cell
  }
}
