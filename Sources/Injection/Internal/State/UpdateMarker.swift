import CInjectionSupport

/// Stands, in a task's values, for the values an asynchronous update closure is building.
///
/// A synchronous update closure is found through its `ContextFrame`, which stays on one thread.
/// An asynchronous one may resume on any thread, so its values are reached through the task
/// instead: while it runs, the task's values are this marker, linked to the enclosing values.
/// For the task that runs the closure, a lookup through the marker continues in the values being
/// built; for every other task (child tasks inherit the marker), and once the closure has
/// returned, the marker is transparent: lookups continue below it, and the values being built are
/// never touched.
final class UpdateMarker: Node, @unchecked Sendable {
  // Safe: as `Node`; `values` and `kept` are used only by the task that owns them, while its
  // update runs; `activeWord` is read and written atomically.
  /// The values being built; valid only while `isActive`.
  let values: UnsafeMutablePointer<InjectedValues>
  /// The task running the update closure (`ContextFrame.currentTask`).
  let owner: UInt
  /// 1 while the update closure runs, then 0. Read by the owner only, atomically in case a task
  /// with the same identity reads it after the owner has ended.
  private let activeWord: UnsafeMutablePointer<UInt>

  init(values: UnsafeMutablePointer<InjectedValues>, next: Node?) {
    self.values = values
    self.owner = ContextFrame.currentTask
    activeWord = .allocate(capacity: 1)
    activeWord.initialize(to: 1)
    super.init(kind: .marker, next: next)
  }

  deinit {
    activeWord.deallocate()
  }

  /// The values being built, if the current task is the one building them.
  var valuesOfCurrentTask: UnsafeMutablePointer<InjectedValues>? {
    guard owner == ContextFrame.currentTask, injection_load_acquire(activeWord) == 1 else {
      return nil
    }
    return values
  }

  /// `node` as a marker, if it is one and the current task is building its values: the one
  /// test for a marker, by kind.
  static func building(_ node: Node?) -> UpdateMarker? {
    guard let node, node.kind == .marker else { return nil }
    let marker = unsafeDowncast(node, to: UpdateMarker.self)  // the only node of its kind
    return marker.valuesOfCurrentTask == nil ? nil : marker
  }

  /// The latest chain built while the update closure runs (see `ContextFrame.keep`); touched by
  /// the owner only, while the closure runs.
  private var kept: Node?
  /// The chain of the values being built, while `kept` is another value's.
  private var keptOwn: Node?

  /// Keeps `head` alive until the next call, or until the update closure returns, and the chain
  /// of the values being built too if `head` is not theirs (see `ContextFrame.keep`).
  func keepAlive(_ head: Node) {
    // `$0`'s chain first, as `ContextFrame.keep` does, then the new one.
    let isOwn = InjectedValues.headAddress(at: values) == UInt(bitPattern: ObjectIdentifier(head))
    if !isOwn { keptOwn = values.pointee.head }
    kept = head
    if isOwn { keptOwn = nil }
  }

  /// The chains the values being built held before seed-style setters wrote behind the
  /// closure's back and dropped them (see `ContextFrame.holdUntilPopped`).
  private var heldBeforeSeedWrites: [Node] = []

  /// Holds `chain` until the closure returns, as `ContextFrame.holdUntilPopped` does.
  func holdUntilReturned(_ chain: Node) {
    heldBeforeSeedWrites.append(chain)
  }

  /// Ends the marker's role; called by the owner when the update closure returns or throws.
  func deactivate() {
    kept = nil
    keptOwn = nil
    heldBeforeSeedWrites = []
    injection_store_release(activeWord, 0)
  }

  override func findSpecial(_ key: UInt) -> Unmanaged<Node>? {
    Node.find(key, from: valuesOfCurrentTask?.pointee.head ?? next)
  }

  override func relinked(to next: Node?) -> Node {
    // A marker is never compacted: compaction starts from resolved values (see
    // `InjectedValues.resolvedHead`).
    next ?? IndexNode([], layer: OverrideSite.noLayer, next: nil)
  }
}
