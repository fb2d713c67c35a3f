import CInjectionSupport

// The one write of an override, which every writer calls, and where seed-style setters write.

extension InjectedValues {
  // The one write of an override, in two halves that every writer calls around making its box:
  // the subscript's setter (and through it seed-style setters and writes to snapshots), `lazy`,
  // and a scope that redeclares a lazy value. Two halves rather than one function that takes a
  // closure making the box, which would copy the setter's value into the closure's context.

  /// Starts a write of an override of `key`: returns what its box links to and its site.
  @inlinable @inline(__always)
  mutating func startWrite(of key: UInt) -> (next: Node?, site: OverrideSite) {
    let site = self.site ?? OverrideSite.snapshot(over: head)
    self.site = site
    if head?.layer == site.layer, let edited = Node.unlinking(key, from: head, layer: site.layer) {
      return (edited, site)
    }
    // Moved, not copied: the box takes this value's reference to its chain.
    return (head.take(), site)
  }

  /// Ends the write that `startWrite(of:)` started: links `box` at the top of this value's chain.
  @inlinable @inline(__always)
  mutating func finishWrite(_ box: Node) {
    head = box
  }

  /// This value's own overrides, innermost first.
  var ownBoxes: OwnBoxes { OwnBoxes(head: head, layer: site?.layer) }

  // MARK: - Writes to `$0` and its copies

  /// A write of `key` to values whose head is an update closure's builder (`$0`, or a copy of
  /// it): into the builder, for the closure's own code; anywhere else, these values first become
  /// a snapshot of what they show here.
  @inlinable
  mutating func writeThroughBuilder<Key: InjectionKey>(
    _ value: consuming Key.Value,
    for key: Key.Type
  ) {
    // Moved out of these values for the write and back, rather than copied: the closure's
    // code cannot reach `$0` while its setter runs.
    let builder = unsafeDowncast(head.take().unsafelyUnwrapped, to: UpdateBuilder.self)
    if builder.isOpenForCurrentCode {
      let (next, site) = builder.values.startWrite(of: Self._key(Key.self))
      builder.values.finishWrite(Box<Key>(consume value, next: consume next, site: site))
      head = builder
    } else {
      self = builder.snapshot()
      self[Key.self] = value
    }
  }

  // MARK: - Writes by type: `Self[Key.self] = v`

  /// `Self[Key.self] = value`: an override in the values of the update closure that the current
  /// code runs, if any; else the global value.
  ///
  /// Inlinable, so that a write in an update closure is compiled for `Key` where the setter is.
  @inlinable
  static func setFromType<Key: InjectionKey>(_ value: consuming Key.Value, for key: Key.Type) {
    if let builder = runningBuilder {
      builder.writeFromType(value, for: Key.self)
    } else {
      setGlobalFromType(value, for: Key.self)
    }
  }

  /// `setFromType` outside every update closure: the global value; a probe's getter may not
  /// write.
  @usableFromInline
  static func setGlobalFromType<Key: InjectionKey>(_ value: Key.Value, for key: Key.Type) {
    if let frame = ContextFrame.top, frame.pointee.kind == .probe {
      fatalError(
        "Injection: an accessor's getter, run to find the keys it reads, wrote \(Key.self). "
          + "Only accessors whose getters read can be asked about."
      )
    }
    publishGlobal(Box<Key>(value, next: nil, site: OverrideSite(.global, depth: 0)), of: Key.self)
  }

  // MARK: - Values built on first use

  /// Overrides the key behind `keyPath` with a value built on first use: a `LazyBox`, whose key
  /// is learnt by running the accessor's getter. Inlined, so that the probe applies a key path
  /// literal as a direct call of the accessor's getter.
  @inlinable @inline(__always)
  mutating func declareLazy<Value: Sendable>(
    _ keyPath: WritableKeyPath<InjectedValues, Value>,
    _ make: @escaping @Sendable () -> Value,
    teardown: LazyTeardown<Value>
  ) {
    let key = Self.keyOverriddenLazily(by: keyPath)
    if let head, head.kind == .builder {
      let builder = unsafeDowncast(head, to: UpdateBuilder.self)
      if builder.isOpenForCurrentCode {
        return builder.values.writeLazy(key, make, teardown: teardown)
      }
      self = builder.snapshot()
    }
    writeLazy(key, make, teardown: teardown)
  }

  /// The write of `declareLazy`, once the key is known.
  @inlinable
  mutating func writeLazy<Value: Sendable>(
    _ key: any InjectionKey.Type,
    _ make: @escaping @Sendable () -> Value,
    teardown: LazyTeardown<Value>
  ) {
    let identity = UInt(bitPattern: ObjectIdentifier(key))
    let (next, site) = startWrite(of: identity)
    let cell = LazyCell(key: key, site: site, make: make, teardown: teardown)
    finishWrite(LazyBox(cell, key: identity, next: consume next, site: site))
    ownsLazyValues = true
  }
}
