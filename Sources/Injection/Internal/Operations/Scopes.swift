// Entering a scope: the values an update closure builds, and binding them as a task's values.

extension InjectedValues {
  /// A scope whose parent's chain is longer than this starts from the parent's compacted chain.
  @usableFromInline static let maximumParentHops: Int32 = 3
  /// A chain longer than this is compacted before it is bound as a task's values. A snapshot
  /// written many times, a scope with many own indexes, or a whole snapshot assigned to `$0`,
  /// can make one.
  @usableFromInline static let maximumBoundHops: Int32 = 8

  /// The values an update closure starts from: the parent's overrides, recorded as set in the
  /// scope at `fileID:line`, one scope deeper.
  @inlinable
  init(updating parent: Node?, fileID: StaticString, line: UInt) {
    var start = parent
    if let parent, parent.hops > Self.maximumParentHops { start = Self.compacted(parent) }
    self.init(head: start)
    site = OverrideSite(.scope, depth: (start?.depth ?? 0) + 1, fileID: fileID, line: line)
  }

  /// The chain to bind as a task's values: this value's, compacted if lookups would walk long.
  @inlinable
  var headForBinding: Node? {
    guard let head = chain else { return nil }
    return head.hops > Self.maximumBoundHops ? Self.compacted(head) : head
  }

  // MARK: - Update closures

  /// Runs `update` on `$0`, values that start from the current code's and refer to a new
  /// `UpdateBuilder`, with a frame that lets seed-style accessors and every read in it reach the
  /// builder, and returns the values it built.
  @inlinable
  static func updating<Failure: Error>(
    fileID: StaticString,
    line: UInt,
    with update: (inout InjectedValues) throws(Failure) -> Void
  ) throws(Failure) -> InjectedValues {
    let start = InjectedValues(updating: _visibleHead, fileID: fileID, line: line)
    var builder = UpdateBuilder(starting: start, synchronous: true)
    var values = InjectedValues(builder: builder)
    let frame = ContextFrame(.update, builder: builder, task: ContextFrame.currentTask)
    let outcome = Result { () throws(Failure) in
      try ContextFrame.with(frame) { () throws(Failure) in try update(&values) }
    }
    let built = finishUpdate(&builder, final: &values)
    try outcome.get()
    return built
  }

  /// Ends the update closure of `builder`, whose `$0` holds `final`, and returns the values of
  /// the scope: those built, or, if the closure assigned `$0` other values, those values with the
  /// closure's seed-style writes on top (they could not see `$0`). If copies of `$0` remain, the
  /// builder is sealed for them.
  @usableFromInline
  static func finishUpdate(
    _ builder: inout UpdateBuilder,
    final: inout InjectedValues
  ) -> InjectedValues {
    var built = builder.values
    if final.builder !== builder {
      #if DEBUG
        warnOfSeedReadsAfterAssignment(in: builder)
      #endif
      built = InjectedValues(head: final.chain)
      if final.builder == nil {
        built.site = final.site
        built.ownsLazyValues = final.ownsLazyValues
      }
      // The replayed writes are this scope's.
      if built.site == nil { built.site = builder.values.site }
      for box in builder.seedWrites {
        let (next, site) = built.startWrite(of: box.key)
        built.finishWrite(box.relinked(to: next, site: site))
      }
    }
    final = InjectedValues()
    if !isKnownUniquelyReferenced(&builder) { builder.seal(result: built.head) }
    return built
  }

  #if DEBUG
    /// Where the messages of update closures go in the current task: standard error, unless code
    /// that provokes them on purpose (the project's model tests) collects them.
    @TaskLocal static var updateClosureMessages: (@Sendable (String) -> Void)?

    /// Prints, once, that the update closure of `builder`, which assigned `$0` other values, also
    /// read and wrote keys through seed-style accessors: those read the values being built, not
    /// `$0`'s, so `$0.count += 1` after `$0 = snapshot` does not start from the snapshot.
    static func warnOfSeedReadsAfterAssignment(in builder: UpdateBuilder) {
      let keys = builder.keysReadAndWrittenBySeedAccessors
      guard let site = builder.values.site, !keys.isEmpty else { return }
      let names = keys.map { "\($0)" }.joined(separator: ", ")
      (updateClosureMessages ?? CycleDetection.report)(
        "Injection: the update closure at \(site.fileID):\(site.line) assigned $0 other values and "
          + "read \(names) through a seed-style accessor (`Self[Key.self]`), which reads the values "
          + "being built, not $0's: after `$0 = snapshot`, `$0.x += 1` does not start from the "
          + "snapshot. To start from a snapshot, nest the scope inside it: "
          + "withInjectedValues(snapshot) { withInjectedValues { $0.x += 1 } operation: { … } }."
      )
    }
  #endif

  // MARK: - Binding a scope

  /// Runs `operation` with the task's values bound to the chain at `head`.
  ///
  /// If this thread is inside an update closure, a default or a probe, the operation must not
  /// see it: a frame says that reads see the task's values again.
  @inlinable
  static func withHead<Result, Failure: Error>(
    _ head: Node?,
    _ operation: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    do {
      let bound = TaskValues(storage: head)
      if ContextFrame.top == nil {
        return try taskValues.withValue(bound, operation: operation)
      }
      return try ContextFrame.with(ContextFrame(.operation)) {
        try taskValues.withValue(bound, operation: operation)
      }
    } catch {
      throw error as! Failure  // `operation` throws only `Failure`.
    }
  }

  /// Runs the asynchronous `operation` with the task's values bound to the chain at `head`.
  @inlinable
  static func withHead<Result, Failure: Error>(
    _ head: Node?,
    _ operation: () async throws(Failure) -> Result,
    isolation: isolated (any Actor)?
  ) async throws(Failure) -> Result {
    do {
      return try await taskValues.withValue(
        TaskValues(storage: head),
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
    let (head, scope) = values.openLazyValues(synchronously: true)
    return try withHead(head) { () throws(Failure) -> Result in
      defer { scope.end() }
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
    let (head, scope) = values.openLazyValues(synchronously: false)
    return try await withHead(
      head,
      { () async throws(Failure) -> Result in
        do throws(Failure) {
          let result = try await operation()
          await scope.end()
          return result
        } catch {
          await scope.end()
          throw error
        }
      },
      isolation: isolation
    )
  }

  /// Starts the scope of the values built on first use that this value declared, and returns
  /// the chain to bind and the scope that ends them. A synchronous scope cannot wait for an
  /// asynchronous teardown, so there declaring one stops the program, before the operation runs.
  ///
  /// Each scope builds its own value: a declaration that another scope has already started (a
  /// value with a `lazy` declaration bound with `$0 = v` in two scopes) is declared again here,
  /// with a cell of its own. That changes this value's chain, so every cell then sees the new one.
  @usableFromInline
  mutating func openLazyValues(synchronously: Bool) -> (head: Node?, scope: LazyScope) {
    let scope = LazyScope()
    var taken: [LazyBox] = []
    let head = headForBinding
    forEachOwnBox { node in
      guard let box = node as? LazyBox else { return }
      if synchronously, box.cell.hasAsynchronousTeardown {
        Self.stopForAsynchronousTeardown(box.cell)
      }
      if !scope.open(box.cell, seeing: head) { taken.append(box) }
    }
    guard !taken.isEmpty else { return (head, scope) }
    for box in taken {
      let (next, site) = startWrite(of: box.key)
      let cell = box.cell.redeclared(at: site)
      finishWrite(LazyBox(cell, next: next, site: site))
      _ = scope.open(cell, seeing: nil)
    }
    let newHead = headForBinding
    for cell in scope.cells { cell.reopen(seeing: newHead) }
    return (newHead, scope)
  }

  static func stopForAsynchronousTeardown(_ cell: any LazyScopeMember) -> Never {
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

  /// The chain that resolves each key as the current task's overrides do, else as `values`'s:
  /// an index of the caller's visible boxes, carrying the caller's strict-mode observer, linked
  /// to an index of the snapshot's. Built once per entry, so reads inside cost what they cost in
  /// any scope.
  static func merged(_ values: InjectedValues) -> Node? {
    let caller = _visibleHead
    guard let snapshot = values.chain else { return caller }
    guard let caller else { return values.headForBinding }
    // The caller's chain already contains the snapshot's: its overrides win, the rest is there.
    var node: Node? = caller
    while let current = node {
      if current === snapshot { return caller }
      node = current.next
    }
    return IndexNode(indexing: caller, next: IndexNode(indexing: snapshot))
  }
}
