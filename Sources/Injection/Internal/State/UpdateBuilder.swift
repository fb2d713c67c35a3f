public import CInjectionSupport

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The values an update closure builds: the object that `$0` refers to while the closure runs.
///
/// `$0` is an `InjectedValues` whose chain is this node. Every write the closure makes, through
/// `$0` (instance-style accessors, `lazy`), through a copy of it, or through a seed-style setter
/// (`Self[Key.self] = v`, which finds the builder through the thread's frame or the task's
/// values), changes the builder, never the memory of `$0`: the closure holds `$0` `inout`, and
/// the library never reads or writes that memory behind it. When the closure returns, the
/// library takes the built values from the builder (`InjectedValues.finishUpdate`).
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
  // Safe: `base`, `values`, `seedWrites` and `sealed` are written only by the code of the closure
  // (`isOwnedByCurrentCode`: its thread, or the task of an asynchronous closure), which runs one
  // step at a time, or while nothing else refers to the builder (a spare being reused). Other
  // code reads `sealed`, and then `base` or `values`, only under `lock`; the closure's code seals
  // the builder, and lets go of `base`, under it. The same reasoning makes the runtime's
  // exclusivity checks of these properties redundant: they are `@exclusivity(unchecked)`.

  /// The values around the closure: what other code sees until the closure returns.
  @exclusivity(unchecked) @usableFromInline var base: Node?
  /// The thread that runs a synchronous closure, or 0; the task that runs an asynchronous one,
  /// which may resume on any thread (`ContextFrame.currentTask`), or 0.
  @usableFromInline let ownerThread: UInt
  @usableFromInline let ownerTask: UInt
  /// The values built so far.
  @exclusivity(unchecked) @usableFromInline var values: InjectedValues
  /// The boxes that seed-style setters wrote, one per key, oldest first: applied again on top of
  /// `$0` if the closure assigned it values that are not a copy of `$0`.
  @exclusivity(unchecked) @usableFromInline var seedWrites: [Node] = []
  /// Whether the closure has returned.
  @exclusivity(unchecked) @usableFromInline var sealed = false

  private var lock: Lock { Lock.striped(for: self) }

  /// A builder for a closure that starts from `values`. `synchronous` closures are owned by
  /// their thread, asynchronous ones by their task.
  @usableFromInline
  init(starting values: InjectedValues, synchronous: Bool) {
    base = values.head
    self.values = values
    ownerThread = synchronous ? currentThreadID() : 0
    ownerTask = synchronous ? 0 : ContextFrame.currentTask
    // Observed, so that a read through a builder that finds no override asks whether strict
    // mode must hear of it (`reportFallback`), whatever the values it resolves to.
    super.init(kind: .builder, next: nil, isObserved: true)
  }

  /// A builder for a closure that starts from `values`: this thread's spare one, if it has one,
  /// for a synchronous closure.
  @inlinable
  static func make(starting values: consuming InjectedValues, synchronous: Bool) -> UpdateBuilder {
    if synchronous, let spare = injection_spare_builder_take() {
      let builder = Unmanaged<UpdateBuilder>.fromOpaque(spare).takeRetainedValue()
      builder.base = values.head
      builder.values = values
      return builder
    }
    return UpdateBuilder(starting: values, synchronous: synchronous)
  }

  // MARK: - A spare builder per thread

  /// Keeps `builder`, which nothing else refers to any more and which holds no values, as its
  /// thread's spare, if the thread has none: the next synchronous closure on the thread uses it
  /// instead of allocating one. The spare slot takes the caller's reference. A thread's spare is
  /// released when the thread exits.
  @usableFromInline
  static func keepAsSpare(_ builder: consuming UpdateBuilder) {
    guard builder.ownerThread != 0 else { return }
    let spare = Unmanaged.passRetained(consume builder).toOpaque()  // the reference `builder` held
    switch injection_spare_builder_put(spare) {
    case 1: return
    case 0: Unmanaged<UpdateBuilder>.fromOpaque(spare).release()
    default: makeSpareCell(holding: spare)
    }
  }

  /// Gives this thread the cell that holds its spare, with `spare` in it, and has the cell freed
  /// and its spare released when the thread exits.
  static func makeSpareCell(holding spare: UnsafeMutableRawPointer) {
    let cell = UnsafeMutablePointer<injection_spare_cell>.allocate(capacity: 1)
    cell.initialize(to: injection_spare_cell(builder: spare))
    injection_spare_set_cell(cell)
    pthread_setspecific(spareCellKey, cell)
  }

  /// A thread-specific key whose value is the thread's spare cell, and whose destructor frees it.
  private static let spareCellKey: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key) { cell in freeSpareCell(cell) }
    precondition(status == 0, "Injection: cannot create a thread-specific key (\(status))")
    return key
  }()

  /// Releases the spare in `cell`, an exiting thread's spare cell, and frees the cell. A
  /// destructor that runs after this one on the thread and enters a scope makes a new cell.
  private static func freeSpareCell(_ cell: UnsafeMutableRawPointer?) {
    guard let cell = cell?.assumingMemoryBound(to: injection_spare_cell.self) else { return }
    injection_spare_set_cell(nil)
    if let spare = cell.pointee.builder { Unmanaged<UpdateBuilder>.fromOpaque(spare).release() }
    cell.deallocate()
  }

  /// Whether the code running now is the closure's own: the thread of a synchronous closure, or
  /// the task of an asynchronous one. A thread, not a task, for a synchronous closure, because
  /// everything on that thread runs one step at a time, so no write can race; a task started
  /// there with `Task.immediate` and given a copy of `$0` therefore works on it as the closure
  /// does (Rules.md says so), while its own reads and seed-style writes, which go through the
  /// frame, check the task.
  @inlinable
  var isOwnedByCurrentCode: Bool {
    ownerThread != 0 ? ownerThread == currentThreadID() : isOwnedByCurrentTask
  }

  /// Whether the task running now is the one that runs this builder's asynchronous closure.
  @usableFromInline
  var isOwnedByCurrentTask: Bool { ownerTask == ContextFrame.currentTask }

  /// Whether the code running now is the closure's own, and the closure has not returned: the
  /// code whose writes go into this builder.
  @inlinable
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

  // The values built so far change only through writes to `values` (a value that a write
  // replaces is released once the new one is stored, see `finishWrite`, so its deinitializer may
  // read them).

  /// A seed-style setter's write of `key`: into the values built so far, and remembered, in case
  /// `$0` is assigned other values before the closure returns.
  @inlinable
  func writeFromType<Key: InjectionKey>(_ value: consuming Key.Value, for key: Key.Type) {
    values[Key.self] = value
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

  /// The seed-style writes of the closure, oldest first, leaving none; and the site of its writes.
  func takeSeedWrites() -> (boxes: [Node], site: OverrideSite?) {
    defer { seedWrites = [] }
    return (seedWrites, values.site)
  }

  /// Ends the closure of `builder`, whose `values` are now the scope's, and returns them. A
  /// builder that no copy of `$0` refers to any more hands them over and becomes its thread's
  /// spare; one that copies still refer to keeps them, for those copies, from now on.
  @inlinable
  static func finish(_ builder: consuming UpdateBuilder) -> InjectedValues {
    if isKnownUniquelyReferenced(&builder) { return retire(builder) }
    builder.seal()
    return builder.values
  }

  /// The values built, leaving none: `builder`, which nothing else refers to, is spare again.
  @inlinable
  static func retire(_ builder: consuming UpdateBuilder) -> InjectedValues {
    var taken = InjectedValues()
    swap(&taken, &builder.values)
    if !builder.seedWrites.isEmpty { builder.seedWrites = [] }
    builder.base = nil
    keepAsSpare(builder)
    return taken
  }

  /// Seals the builder: its copies of `$0` see `values` from now on.
  @usableFromInline
  func seal() {
    seedWrites = []
    // `base` is read only before sealing; let go of it, outside the lock (it may run a deinit).
    let released = lock.withLock { () -> Node? in
      sealed = true
      defer { base = nil }
      return base
    }
    withExtendedLifetime(released) {}
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
