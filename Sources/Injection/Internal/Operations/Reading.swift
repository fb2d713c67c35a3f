public import CInjectionSupport

// The paths a read takes: which values it sees, and where it goes when they hold no override.

extension InjectedValues {
  /// The table key of `Key`: the address of its metadata.
  @inlinable @inline(__always)
  static func _key<Key: InjectionKey>(_ key: Key.Type) -> UInt {
    UInt(bitPattern: ObjectIdentifier(Key.self))
  }

  /// The head of the values a read sees here: the task's, unless this thread runs an update
  /// closure, creates a default, or probes an accessor (see `ContextFrame`).
  @inlinable
  static var _visibleHead: Node? {
    if let frame = ContextFrame.top { return _visibleHead(in: frame) }
    return _storage.get()
  }

  @usableFromInline
  static func _visibleHead(in frame: UnsafeMutablePointer<ContextFrame>) -> Node? {
    switch frame.pointee.kind {
    case .update:
      if let values = frame.pointee.updateValues() { return values.pointee.head }
      return _storage.get()
    case .reading: return frame.pointee.head?.takeUnretainedValue()
    case .probe: return nil
    case .operation: return _storage.get()
    }
  }

  /// The visible head, with an asynchronous update's marker resolved: the values being built for
  /// the task that builds them, the values around them for every other task.
  @inlinable
  static var _resolvedHead: Node? {
    let head = _visibleHead
    if let head, head.key == Node.markerKind { return _resolvingMarker(head) }
    return head
  }

  /// The values that the update closure running in this task builds, if the current code is
  /// that closure (not a default it creates, a probe, or a nested operation).
  static var _valuesBeingBuilt: UnsafeMutablePointer<InjectedValues>? {
    if let frame = ContextFrame.top {
      switch frame.pointee.kind {
      case .update: if let values = frame.pointee.updateValues() { return values }
      case .operation: break
      case .reading, .probe: return nil
      }
    }
    guard let head = _storage.get(), head.key == Node.markerKind else { return nil }
    return unsafeDowncast(head, to: UpdateMarker.self).valuesOfCurrentTask  // its only kind
  }

  @usableFromInline
  static func _resolvingMarker(_ head: Node) -> Node? {
    let marker = unsafeDowncast(head, to: UpdateMarker.self)  // the only node of its kind
    return marker.valuesOfCurrentTask?.pointee.head ?? marker.next
  }

  /// The value of the box of `Key` that `Node.find` returned.
  @inlinable @inline(__always)
  static func _value<Key: InjectionKey>(of box: Unmanaged<Node>, as key: Key.Type) -> Key.Value {
    box._withUnsafeGuaranteedRef { node in
      if node.isLazy { return unsafeDowncast(node, to: LazyBox<Key.Value>.self).cell.value() }
      return unsafeDowncast(node, to: Box<Key>.self).value
    }
  }

  /// The global value of `Key`, else its default: what a read finds when no scope overrides it.
  @inlinable
  static func _sharedValue<Key: InjectionKey>(_ key: Key.Type) -> Key.Value {
    if let frame = ContextFrame.top, let probe = frame.pointee.probe {
      probe.pointee.read(Key.self, valueType: Key.Value.self)
    }
    let table = injection_global_table_load()
    if table != 0 { return _sharedValue(Key.self, in: table) }
    return _reading(nil, creating: Key.self) { Key.currentValue }
  }

  /// `_sharedValue(_:)` once some key has a global value (`table` is the current table): out of line, so that reads of
  /// defaults stay short while no key is set globally. The global value is copied out in a read
  /// section, without retaining its box (see `GlobalCell`).
  @inlinable @inline(never)
  static func _sharedValue<Key: InjectionKey>(_ key: Key.Type, in table: UInt) -> Key.Value {
    if let box = GlobalValues.beginReading(_key(Key.self), in: table) {
      let value = box._withUnsafeGuaranteedRef {
        unsafeDowncast($0, to: Box<Key>.self).value  // global values are `Box`es
      }
      GlobalValues.endReading()
      return value
    }
    return _reading(nil, creating: Key.self) { Key.currentValue }
  }

  /// Runs `body`, which creates the value of `key` (a default, or a value built on first use),
  /// with reads seeing the values at `head` and, in debug builds, a check for cycles.
  ///
  /// A default is created outside every scope (`head` is `nil`): whichever scope reads it first,
  /// it sees only global values and other defaults.
  @inlinable
  static func _reading<Result>(
    _ head: Node?,
    creating key: any InjectionKey.Type,
    _ body: () -> Result
  ) -> Result {
    #if DEBUG
      return _checkingForCycles(key) { ContextFrame.reading(head, creating: key, body) }
    #else
      return ContextFrame.reading(head, creating: key, body)
    #endif
  }

  /// Runs `body`, which creates or waits for the value of `key` (its default, or with `cell`,
  /// the value built on first use in that cell), after checking in debug builds that this does
  /// not close a cycle; see `CycleDetection`.
  @usableFromInline
  static func _checkingForCycles<Result>(
    _ key: any InjectionKey.Type,
    cell: UInt = 0,
    _ body: () -> Result
  ) -> Result {
    #if DEBUG
      CycleDetection.enter(key, cell: cell)
      defer { CycleDetection.leave() }
    #endif
    return body()
  }

  /// Tells strict mode about a read of `Key` that found no override, unless the reading task is
  /// running an update closure: computing a mock from a default is not using a live dependency.
  @usableFromInline
  static func _reportFallback<Key: InjectionKey>(_ key: Key.Type, in head: Node) {
    if let frame = ContextFrame.top, frame.pointee.updateValues() != nil { return }
    if let marker = _storage.get() as? UpdateMarker, marker.valuesOfCurrentTask != nil { return }
    guard let observer = head.observer else { return }
    observer.keyFellBack(Key.self, isGlobal: GlobalValues.box(for: _key(Key.self)) != nil)
  }
}
