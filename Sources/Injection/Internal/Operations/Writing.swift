import CInjectionSupport

// The paths a write takes: into a value's own overrides, into an update closure's values, or into
// the global values.

extension InjectedValues {
  /// How many overrides a value links one by one above its base before it indexes them.
  static let maximumOwnBoxes: Int = 4
  /// A scope whose parent's chain is longer than this starts from the parent's compacted chain.
  @usableFromInline static let maximumParentHops: Int32 = 3
  /// A chain longer than this is compacted before it is bound as a task's values. Scopes never
  /// build one (their parent has at most `maximumParentHops`, their own writes at most
  /// `maximumOwnBoxes` boxes and one index); a snapshot written many times, or a whole snapshot
  /// assigned to `$0`, can.
  @usableFromInline static let maximumBoundHops: Int32 = 8

  // MARK: - A value's own overrides

  /// Links the box that `makeBox` makes for `key` (given what it links to and its site) at the
  /// top of this value's chain.
  @inlinable
  mutating func _write(_ key: UInt, _ makeBox: (_ next: Node?, _ site: OverrideSite) -> Node) {
    let site = self.site ?? OverrideSite.snapshot(over: head)
    self.site = site
    let next = head?.layer == site.layer ? _unlinking(key) : head
    head = makeBox(next, site)
    _keepAliveWhileBuilding()
  }

  // MARK: - Keeping chains alive while an update closure runs

  /// After a write to this value: if an update closure runs on this thread, keeps this chain
  /// alive until the next write or until the closure returns (see `UpdateStorage`), whichever
  /// value was written: one that the closure derives from the values being built links to their
  /// chain, so keeping its chain keeps theirs.
  @inlinable @inline(__always)
  mutating func _keepAliveWhileBuilding() {
    guard let frame = ContextFrame.top else {
      if let head { Self._keepAliveInAsynchronousUpdate(head) }
      return
    }
    frame.pointee.keptSlot?.pointee = head
  }

  /// Keeps `head` alive until the update closure running on this thread returns, if any.
  @usableFromInline
  static func _keepAlive(_ head: Node?) {
    guard let head else { return }
    if let frame = ContextFrame.top {
      frame.pointee.keptSlot?.pointee = head
    } else {
      _keepAliveInAsynchronousUpdate(head)
    }
  }

  /// `_keepAliveWhileBuilding` for an asynchronous update closure, which has no frame.
  @usableFromInline
  static func _keepAliveInAsynchronousUpdate(_ head: Node) {
    guard let node = _storage.get(), node.key == Node.markerKind else { return }
    let marker = unsafeDowncast(node, to: UpdateMarker.self)  // the only node of its kind
    if marker.valuesOfCurrentTask != nil { marker.keepAlive(head) }
  }

  /// Prepares this value's own overrides (those at the top of the chain, of its layer) for a new
  /// override of `key`, and returns what the new box links to.
  ///
  /// An own override of `key` is removed, so that rewriting a key keeps one value alive. The own
  /// overrides are at most `maximumOwnBoxes` boxes and one index below them: when a new key would
  /// exceed that, the boxes move into a new index.
  @usableFromInline
  mutating func _unlinking(_ key: UInt) -> Node? {
    let layer = site!.layer
    var boxCount = 0
    var position: Int?
    var ownIndex: IndexNode?
    // Walked unretained, as a lookup is: `head` keeps every node alive.
    var below = head.map { Unmanaged.passUnretained($0) }
    while let current = below {
      let (nodeLayer, nodeKey, next) = current._withUnsafeGuaranteedRef {
        ($0.layer, $0.key, $0.nextUnretained)
      }
      guard nodeLayer == layer else { break }
      below = next
      if nodeKey == Node.indexKind {
        // The only node of its kind.
        ownIndex = unsafeDowncast(current.takeUnretainedValue(), to: IndexNode.self)
        break
      }
      if nodeKey == key { position = boxCount }
      boxCount += 1
    }
    let node = below?.takeUnretainedValue()
    if let position {
      return Self.removing(position, from: head!)
    } else if let ownIndex, ownIndex.holds(key) {
      let remaining = IndexNode(ownIndex.boxes.filter { $0.key != key }, layer: layer, next: node)
      return Self.relinking(boxCount, from: head, onto: remaining)
    } else if boxCount < Self.maximumOwnBoxes {
      return head
    } else {
      var boxes: [Node] = []
      var current = head
      for _ in 0..<boxCount {
        boxes.append(current!)
        current = current!.next
      }
      boxes += ownIndex?.boxes ?? []
      return IndexNode(boxes, layer: layer, next: node)
    }
  }

  /// The chain from `node` without its node at `position`; the nodes above it are relinked.
  private static func removing(_ position: Int, from node: Node) -> Node? {
    position == 0 ? node.next : node.relinked(to: removing(position - 1, from: node.next!))
  }

  /// The first `count` nodes from `node`, relinked onto `bottom`.
  private static func relinking(_ count: Int, from node: Node?, onto bottom: Node?) -> Node? {
    guard count > 0, let node else { return bottom }
    return node.relinked(to: relinking(count - 1, from: node.next, onto: bottom))
  }

  /// This value's own overrides, innermost first.
  var ownBoxes: OwnBoxes { OwnBoxes(head: head, layer: site?.layer) }

  // MARK: - Writes by type: `Self[Key.self] = v`

  /// `Self[Key.self] = value`: an override in the values of the update closure the current task
  /// runs, if any; else the global value.
  @usableFromInline
  static func _setFromType<Key: InjectionKey>(_ value: Key.Value, for key: Key.Type) {
    if let frame = ContextFrame.top {
      if let values = frame.pointee.updateValues() {
        values.pointee[Key.self] = value
        return
      }
      if frame.pointee.kind == .probe {
        fatalError(
          "Injection: an accessor's getter, run to find the keys it reads, wrote \(Key.self). "
            + "Only accessors whose getters read can be asked about."
        )
      }
    }
    if let marker = _storage.get() as? UpdateMarker, let values = marker.valuesOfCurrentTask {
      values.pointee[Key.self] = value
      return
    }
    setGlobalValue(value, for: Key.self)
  }

  // MARK: - Global values

  /// Sets the global value of `Key`.
  static func setGlobalValue<Key: InjectionKey>(_ value: Key.Value, for key: Key.Type) {
    let box = Box<Key>(value, next: nil, site: OverrideSite(.global, depth: 0))
    let replaced = GlobalValues.setBox(box, for: _key(Key.self))
    withExtendedLifetime(replaced) {}  // released here, outside every lock: it may run a deinit
    reportGlobalChange(of: Key.self, removed: false)
  }

  /// Sets the global values of the keys that the setter behind `keyPath` writes.
  ///
  /// The setter runs on empty values, as an update closure that sees only global values and
  /// defaults, so a write through a nested key path (`\.config.timeout`) starts from the global
  /// value, never from a scope's override. What it writes is then published as global values.
  @usableFromInline
  static func _setGlobal<Value>(
    _ value: Value,
    through keyPath: WritableKeyPath<InjectedValues, Value>
  ) {
    // In an `UpdateStorage`, as the values of every update frame are (see `keptSlot`).
    var storage = UpdateStorage(InjectedValues())
    storage.values.site = OverrideSite(.global, depth: 0)
    storage.withPointers { pointer in
      let frame = ContextFrame(
        .update,
        owner: ContextFrame.currentTask,
        values: pointer,
        previous: injection_context_get()
      )
      ContextFrame.with(frame) { pointer.pointee[keyPath: keyPath] = value }
    }
    let scratch = storage.values
    for box in scratch.ownBoxes.reversed() {
      let replaced = GlobalValues.setBox(box, for: box.key)
      withExtendedLifetime(replaced) {}
      if let key = box.overrideKey { reportGlobalChange(of: key, removed: false) }
    }
  }

  /// What `read` returns when reads see only global values and defaults: where a write through
  /// a member (`InjectedValues[\.config].timeout = 5`) starts.
  @usableFromInline
  static func _globalValue<Value>(_ read: () -> Value) -> Value {
    ContextFrame.reading(nil, creating: nil, read)
  }

  /// Removes the global values of `keys`, or of every key if `keys` is `nil`.
  static func resetGlobals(of keys: [any InjectionKey.Type]?) {
    guard let keys else {
      let removed = GlobalValues.removeAll()
      withExtendedLifetime(removed) {}
      reportGlobalChange(of: nil, removed: true)
      return
    }
    for key in keys {
      let removed = GlobalValues.setBox(nil, for: UInt(bitPattern: ObjectIdentifier(key)))
      withExtendedLifetime(removed) {}
      reportGlobalChange(of: key, removed: true)
    }
  }

  /// Tells strict mode, if the current task runs under it, that a global value changed.
  static func reportGlobalChange(of key: (any InjectionKey.Type)?, removed: Bool) {
    _storage.get()?.observer?.globalValueChanged(key, removed: removed)
  }

  /// The keys the getter behind `keyPath` reads, in order, found by running it once on empty
  /// values. Reads fall back, so the getter may create defaults. `package`: strict mode's
  /// allow-list uses it.
  package static func _keysRead<Value>(
    by keyPath: KeyPath<InjectedValues, Value>
  ) -> [any InjectionKey.Type] {
    var probe = KeyProbe(recordsAll: true)
    probing(keyPath, with: &probe)
    return probe.keys
  }

  /// Runs the getter behind `keyPath` once, on empty values, telling `probe` the keys it reads.
  static func probing<Value>(
    _ keyPath: KeyPath<InjectedValues, Value>,
    with probe: inout KeyProbe
  ) {
    withUnsafeMutablePointer(to: &probe) { probe in
      ContextFrame.with(ContextFrame(.probe, probe: probe, previous: injection_context_get())) {
        _ = InjectedValues()[keyPath: keyPath]
      }
    }
  }
}

/// The overrides a value wrote itself, innermost first: the boxes at the top of its chain, of its
/// layer, and those of the index below them, if any. Walking them allocates nothing.
struct OwnBoxes: Sequence, IteratorProtocol {
  private var node: Node?
  private let layer: UInt32?
  private var indexed: IndexingIterator<[Node]>?

  init(head: Node?, layer: UInt32?) {
    self.node = head
    self.layer = layer
  }

  mutating func next() -> Node? {
    if let box = indexed?.next() { return box }
    guard let layer, let current = node, current.layer == layer else { return nil }
    node = current.next
    guard current.key == Node.indexKind else { return current }
    indexed = unsafeDowncast(current, to: IndexNode.self).boxes.makeIterator()
    return next()
  }
}
