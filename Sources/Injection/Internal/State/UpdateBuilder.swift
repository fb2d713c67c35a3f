/// The values an update closure builds: the object that `$0` refers to while the closure runs.
///
/// `$0` is an `InjectedValues` whose `builder` is this object. Every write the closure makes,
/// through `$0` (instance-style accessors, `lazy`), through a copy of it, or through a seed-style
/// setter (`Self[Key.self] = v`, which finds the builder through the thread's frame or the task's
/// values), changes the builder, never the memory of `$0`: the closure holds `$0` `inout`, and the
/// library never reads or writes that memory behind it. When the closure returns, the scope takes
/// the values built (`InjectedValues.finishUpdate`).
///
/// Who sees what through the builder:
///
/// - **The code of the closure** (the thread that runs a synchronous closure, the task that runs
///   an asynchronous one) sees the values built so far, and writes into them.
/// - **Any other code** holding a copy of `$0` (another thread, a task started in the closure)
///   sees the values around the closure until it returns, then the values it built; a write to
///   such a copy makes it a snapshot of its own.
/// - **After the closure returns**, the builder holds the values it built weakly: a copy of `$0`
///   that the values themselves hold (stored in an override, a model or a lazy factory) does not
///   keep them alive. They are released when the last scope or snapshot holding them ends; a copy
///   that outlives all of them sees the values around the closure again.
@usableFromInline
final class UpdateBuilder: @unchecked Sendable {
  // Safe: `values` and `seedWrites` (and `seedReads`) are read and written only by the code of
  // the closure (`isOpenForCurrentCode`: its thread or its task, which runs one step at a time),
  // and only before it seals the builder. `sealed`, `base` and `result` are written under `lock`,
  // and other code reads them only under it.

  /// The thread that runs a synchronous closure, or 0; the task that runs an asynchronous one,
  /// which may resume on any thread (`ContextFrame.currentTask`), or 0.
  let ownerThread: UInt
  let ownerTask: UInt
  /// The values built so far.
  private(set) var values: InjectedValues
  /// The boxes that seed-style setters wrote, one per key, oldest first: applied again on top of
  /// `$0` if the closure assigned it values that are not a copy of `$0`.
  private(set) var seedWrites: [Node] = []
  #if DEBUG
    /// The keys that seed-style getters read before any seed-style write of them: for the
    /// message of `InjectedValues.warnOfSeedReadsAfterAssignment(in:)`.
    private var seedReads: Set<UInt> = []
  #endif
  /// Whether the closure has returned.
  private var sealed = false
  /// The values around the closure.
  private var base: Node?
  /// Once the closure has returned, the values it built.
  private weak var result: Node?

  private var lock: Lock { Lock.striped(for: self) }

  /// A builder for a closure that starts from `values`. `synchronous` closures are owned by
  /// their thread, asynchronous ones by their task.
  @usableFromInline
  init(starting values: InjectedValues, synchronous: Bool) {
    base = values.head
    self.values = values
    ownerThread = synchronous ? currentThreadID() : 0
    ownerTask = synchronous ? 0 : ContextFrame.currentTask
  }

  /// Whether the code running now is the closure's own, and the closure has not returned: the
  /// code whose writes go into this builder. The closure's own code is the thread of a
  /// synchronous closure, or the task of an asynchronous one. A thread, not a task, for a
  /// synchronous closure: everything on that thread runs one step at a time, so a task started
  /// there with `Task.immediate` and given a copy of `$0` works on it as the closure does
  /// (Rules.md says so), while its own reads and seed-style writes, which go through the frame,
  /// check the task.
  @usableFromInline
  var isOpenForCurrentCode: Bool {
    (ownerThread != 0 ? ownerThread == currentThreadID() : ownerTask == ContextFrame.currentTask)
      && !sealed
  }

  /// The chain that the code running now sees through this builder.
  @usableFromInline
  var chain: Node? {
    if isOpenForCurrentCode { return values.head }
    return lock.withLock { sealed ? result ?? base : base }
  }

  // MARK: - Writing, by the closure's code

  /// Changes the values built so far with `body`, which works on a copy: the builder holds the
  /// old values until it holds the new ones, so that what the write replaces is released after
  /// it, outside every access to the builder, and a deinitializer that runs then may read the
  /// values being built.
  @usableFromInline
  func update(_ body: (inout InjectedValues) -> Void) {
    var updated = values
    body(&updated)
    swap(&values, &updated)
  }

  /// Remembers the box at the head of the values, which a seed-style setter just wrote.
  @usableFromInline
  func rememberSeedWrite() {
    guard let box = values.head else { return }
    seedWrites.removeAll { $0.key == box.key }
    seedWrites.append(box)
  }

  #if DEBUG
    /// Remembers that a seed-style getter read `key`, unless a seed-style setter wrote it first:
    /// what `$0.x += 1` does.
    func rememberSeedRead(_ key: UInt) {
      if !seedWrites.contains(where: { $0.key == key }) { seedReads.insert(key) }
    }

    /// The keys that seed-style accessors read before they wrote them.
    var keysReadAndWrittenBySeedAccessors: [any InjectionKey.Type] {
      seedWrites.filter { seedReads.contains($0.key) }.compactMap(\.overrideKey)
    }
  #endif

  // MARK: - Ending the closure

  /// Ends the closure, which built `built`: from now on, other code sees `built` through the
  /// builder for as long as something else holds it.
  func seal(result built: Node?) {
    let released = lock.withLock { () -> InjectedValues in
      sealed = true
      result = built
      defer { values = InjectedValues() }
      return values
    }
    seedWrites = []
    withExtendedLifetime(released) {}  // released outside the lock: it may run a deinitializer
  }
}
