public import CInjectionSupport

// The paths a read takes once it knows which values it sees (see `ContextFrame.swift`): the
// override's value, else the global value, else the default.

extension InjectedValues {
  /// The value of `Key` in the chain at `head`: its override, else its global value, else its
  /// default.
  @inlinable @inline(__always)
  static func read<Key: InjectionKey>(_ key: Key.Type, in head: Node?) -> Key.Value {
    if let box = Node.find(_key(Key.self), from: head) {
      return overrideValue(of: box, as: Key.self)
    }
    if let head, head.isObserved {
      reportFallback(Key.self, valueType: Key.Value.self, in: head)
    }
    return sharedValue(Key.self)
  }

  /// The value of the box of `Key` that `Node.find` returned: a `Box<Key>`, or else a
  /// `LazyBox<Key.Value>`, since a box is found only under its own key, and `lazy` checked that the
  /// key's values are the accessor's.
  @inlinable
  static func overrideValue<Key: InjectionKey>(
    of node: Unmanaged<Node>,
    as key: Key.Type
  ) -> Key.Value {
    node._withUnsafeGuaranteedRef { node in
      if ObjectIdentifier(type(of: node)) == ObjectIdentifier(Box<Key>.self) {
        return unsafeDowncast(node, to: Box<Key>.self).value
      }
      return lazyValue(of: node, as: Key.Value.self)
    }
  }

  /// The value of `node`, a `LazyBox<Value>`, built on the first read.
  @inlinable @inline(never)
  static func lazyValue<Value: Sendable>(of node: Node, as type: Value.Type) -> Value {
    unsafeDowncast(unsafeDowncast(node, to: LazyBox.self).cell, to: LazyCell<Value>.self).read()
  }

  /// The global value of `Key`, else its default: what a read finds when no scope overrides it.
  @inlinable
  static func sharedValue<Key: InjectionKey>(_ key: Key.Type) -> Key.Value {
    if injection_global_head_load() != 0 { return globalOrDefault(Key.self) }
    return defaultValue(of: Key.self)
  }

  /// `sharedValue(_:)` once some key has a global value. The global value is copied out in a read
  /// section, without retaining its box (see `GlobalValues`).
  @inlinable @inline(never)
  static func globalOrDefault<Key: InjectionKey>(_ key: Key.Type) -> Key.Value {
    if let (box, section) = GlobalValues.beginReading(_key(Key.self)) {
      let value = box._withUnsafeGuaranteedRef {
        unsafeDowncast($0, to: Box<Key>.self).value  // global values are `Box`es
      }
      injection_global_read_end(section)
      return value
    }
    return defaultValue(of: Key.self)
  }

  /// `Key.currentValue`, created with reads seeing only global values and other defaults, after
  /// checking that this thread is not creating `Key` already (see `CycleDetection`). Swift
  /// creates the default itself: a `static let` once, even when many threads read it at once.
  ///
  /// A default is created outside every scope: whichever scope reads it first, it sees only
  /// global values and other defaults.
  @inlinable @inline(never)
  static func defaultValue<Key: InjectionKey>(of key: Key.Type) -> Key.Value {
    // Outside every frame, the usual case of a read, no key can be being created here.
    if ContextFrame.top != nil { CycleDetection.checkThisThread(Key.self, cell: 0) }
    return ContextFrame.reading(nil, creating: Key.self) { Key.currentValue }
  }

  /// Tells strict mode about a read of `key` (whose values are of `valueType`) that found no
  /// override, unless the reading code is an update closure: computing a mock from a
  /// default is not using a live dependency. A read of the values a probe runs an accessor on
  /// (`head` is a `ProbeNode`) is recorded instead.
  @usableFromInline
  static func reportFallback(_ key: any InjectionKey.Type, valueType: Any.Type, in head: Node) {
    if head.kind == .probe { return recordProbedRead(key, valueType: valueType) }
    if runningBuilder != nil { return }
    guard let observer = head.observer else { return }
    let identity = UInt(bitPattern: ObjectIdentifier(key))
    observer.keyFellBack(key, isGlobal: GlobalValues.box(for: identity) != nil)
  }
}
