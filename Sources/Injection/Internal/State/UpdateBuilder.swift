/// The values an update closure builds: the object that `$0` refers to while the closure runs.
///
/// `$0` is an `InjectedValues` whose chain is this node. Every write the closure makes, through
/// `$0` (instance-style accessors, `lazy`), through a copy of it, or through a seed-style setter
/// (`Self[Key.self] = v`, which finds the builder through the thread's frame or the task's
/// values), changes the builder, never the memory of `$0`: the closure holds `$0` `inout`, and
/// the library never reads or writes that memory behind it. When the closure returns, the
/// library takes the built values from the builder (`seal(returning:)`).
///
/// Who sees what:
///
/// - **The code of the closure** (the thread that runs a synchronous closure, the task that runs
///   an asynchronous one) sees the values built so far, and writes into them.
/// - **Any other code** holding a copy of `$0` (another thread, a task started in the closure)
///   sees the values around the closure until it returns, then the values it built; a write to
///   such a copy makes it a snapshot of its own.
/// - **After `$0 = values`** with values that are not a copy of `$0`, `$0` holds those values,
///   and only reads of `$0` itself see them. Seed-style setters cannot see `$0`: they still
///   write into the builder, and those writes are applied on top of `$0`'s values when the
///   closure returns.
///
/// A builder is only ever the head of a chain: writes to a value whose head is a builder go into
/// the builder, so no node ever links to one.
@usableFromInline
final class UpdateBuilder: Node, @unchecked Sendable {
  // Safe: `values` and `seedWrites` are read and written only by the code of the closure
  // (`isOwnedByCurrentCode`), which runs one step at a time. Other code reads `sealed`, and then
  // `values`, only under `lock`, after the closure's code has sealed the builder under it.

  /// The values around the closure: what other code sees until the closure returns.
  private let base: Node?
  /// The task that runs the closure (`ContextFrame.currentTask`), and for a synchronous
  /// closure its thread; 0 for an asynchronous one, which may resume on any thread.
  private let ownerTask: UInt
  private let ownerThread: UInt
  /// The values built so far.
  @usableFromInline var values: InjectedValues
  /// The boxes that seed-style setters wrote, one per key, oldest first: applied again on top of
  /// `$0` if the closure assigned it values that are not a copy of `$0`.
  private var seedWrites: [Node] = []
  /// Whether the closure has returned.
  private var sealed = false

  private var lock: Lock { Lock.striped(for: self) }

  /// A builder for a closure that starts from `values`. `synchronous` closures are owned by
  /// their thread and task, asynchronous ones by their task.
  @usableFromInline
  init(starting values: InjectedValues, synchronous: Bool) {
    base = values.head
    self.values = values
    ownerTask = ContextFrame.currentTask
    ownerThread = synchronous ? currentThreadID() : 0
    super.init(kind: .builder, next: nil, isObserved: values.head?.isObserved ?? false)
  }

  /// Whether the code running now is the closure's own: the thread of a synchronous closure or
  /// the task of an asynchronous one.
  private var isOwnedByCurrentCode: Bool {
    ownerTask == ContextFrame.currentTask && (ownerThread == 0 || ownerThread == currentThreadID())
  }

  /// Whether the code running now is the closure's own, and the closure has not returned: the
  /// code whose writes go into this builder.
  @usableFromInline
  var isOpenForCurrentCode: Bool { isOwnedByCurrentCode && !sealed }

  /// The chain that the code running now sees through this builder.
  var currentChain: Node? {
    if isOwnedByCurrentCode { return values.head }
    return lock.withLock { sealed ? values.head : base }
  }

  /// The chain that `node`, a builder, stands for here.
  @usableFromInline
  static func resolving(_ node: Node) -> Node? {
    unsafeDowncast(node, to: UpdateBuilder.self).currentChain  // the only node of its kind
  }

  /// The values that the code running now sees through this builder, as a snapshot of its own.
  @usableFromInline
  func snapshot() -> InjectedValues {
    InjectedValues(head: currentChain)
  }

  // MARK: - Writing

  /// Runs `write` on the values built so far: the one way they change.
  ///
  /// `write` works on a copy, and the builder keeps the old chain until the copy is stored, so
  /// that a value the write replaces is released after it, outside every access to `values`
  /// (its deinitializer may read dependencies).
  @inlinable
  func update(_ write: (inout InjectedValues) -> Void) {
    var updated = values
    write(&updated)
    swap(&values, &updated)
  }

  /// A seed-style setter's write of `key`: into the values built so far, and remembered, in case
  /// `$0` is assigned other values before the closure returns.
  @inlinable
  func writeFromType<Key: InjectionKey>(_ value: Key.Value, for key: Key.Type) {
    update { $0[Key.self] = value }
    rememberSeedWrite(values.head.unsafelyUnwrapped)
  }

  @usableFromInline
  func rememberSeedWrite(_ box: Node) {
    if let index = seedWrites.firstIndex(where: { $0.key == box.key }) {
      seedWrites.remove(at: index)
    }
    seedWrites.append(box)
  }

  // MARK: - Ending the closure

  /// Ends the closure, whose `$0` holds `final`: returns the values of the scope. From now on,
  /// copies of `$0` hold the values built here.
  @usableFromInline
  func seal(returning final: InjectedValues) -> InjectedValues {
    var result = values
    if final.head !== self {
      // `$0` was assigned other values: they win, with the seed-style writes on top.
      result = final.resolvingBuilder()
      if result.site == nil { result.site = values.site }  // the replayed writes are this scope's
      for box in seedWrites {
        let (next, site) = result.startWrite(of: box.key)
        result.finishWrite(box.relinked(to: next, site: site))
      }
    }
    seedWrites = []
    lock.withLock { sealed = true }
    return result
  }

  // MARK: - As a node

  override func findSpecial(_ key: UInt) -> Unmanaged<Node>? {
    Node.find(key, from: currentChain)
  }

  override func collect(into table: inout KeyTable) {
    var node = currentChain
    while let current = node {
      current.collect(into: &table)
      node = current.next
    }
  }

  override var ownObserver: (any InjectionFallbackObserver)? { currentChain?.observer }
}

extension InjectedValues {
  /// These values with a builder at their head replaced by the chain it stands for here.
  @inlinable
  func resolvingBuilder() -> InjectedValues {
    guard let head, head.kind == .builder else { return self }
    return InjectedValues(head: UpdateBuilder.resolving(head))
  }
}
