// The one write of an override, which every writer calls, and where the writes of update
// closures and seed-style setters go.

extension InjectedValues {
  /// Starts a write of an override of `key`: returns what its box links to and its site. Every
  /// write of an override calls it, makes its box, and passes it to `finishWrite(_:)`.
  @inlinable
  mutating func startWrite(of key: UInt) -> (next: Node?, site: OverrideSite) {
    let site = self.site ?? OverrideSite(snapshotOver: head)
    self.site = site
    if head?.layer == site.layer, let edited = Self.unlinking(key, from: head, layer: site.layer) {
      return (edited, site)
    }
    return (head.take(), site)
  }

  /// Ends the write that `startWrite(of:)` started: links `box` at the top of this value's chain.
  @inlinable
  mutating func finishWrite(_ box: Node) {
    head = box
  }

  /// Overrides `Key` with `value` in these values, which refer to no builder.
  @inlinable
  mutating func writeBox<Key: InjectionKey>(_ value: Key.Value, for key: Key.Type) {
    let (next, site) = startWrite(of: Self._key(Key.self))
    finishWrite(Box<Key>(value, next: next, site: site))
  }

  /// Calls `body` with each override this value wrote itself, innermost first: the boxes at the
  /// top of its chain, of its layer, and those of the own indexes below them.
  func forEachOwnBox(_ body: (Node) -> Void) {
    var node = head
    while let current = node, current.layer == site?.layer {
      if let index = current as? IndexNode { index.boxes.forEach(body) } else { body(current) }
      node = current.next
    }
  }

  // MARK: - Writes to `$0` and its copies

  /// A write of `key` to values that refer to an update closure's builder (`$0`, or a copy of
  /// it): into the builder, for the closure's own code; anywhere else, these values first become
  /// a snapshot of what they show there.
  @inlinable
  mutating func writeThroughBuilder<Key: InjectionKey>(
    _ value: Key.Value,
    for key: Key.Type,
    builder: UpdateBuilder
  ) {
    if builder.isOpenForCurrentCode {
      builder.update { $0.writeBox(value, for: Key.self) }
    } else {
      self = InjectedValues(head: builder.chain)
      writeBox(value, for: Key.self)
    }
  }

  // MARK: - Writes by type: `Self[Key.self] = v`

  /// `Self[Key.self] = value`: an override in the values of the update closure that the current
  /// code runs, if any; else the global value.
  @inlinable
  static func setFromType<Key: InjectionKey>(_ value: Key.Value, for key: Key.Type) {
    if let builder = runningBuilder {
      builder.update { $0.writeBox(value, for: Key.self) }
      builder.rememberSeedWrite()
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

  #if DEBUG
    /// A seed-style getter read `Key`: remembered by the update closure that the current code
    /// runs, if any, for the message of `warnOfSeedReadsAfterAssignment`.
    @usableFromInline
    static func noteSeedRead<Key: InjectionKey>(of key: Key.Type) {
      runningBuilder?.rememberSeedRead(_key(Key.self))
    }
  #endif

  // MARK: - Values built on first use

  /// Overrides the key behind `keyPath` with a value built on first use, whose key is learnt by
  /// running the accessor's getter.
  @inlinable @inline(__always)
  mutating func declareLazy<Value: Sendable>(
    _ keyPath: WritableKeyPath<InjectedValues, Value>,
    _ make: @escaping @Sendable () -> Value,
    teardown: LazyTeardown<Value>
  ) {
    let key = Self.keyOverriddenLazily(by: keyPath)
    if let builder {
      if builder.isOpenForCurrentCode {
        return builder.update { $0.writeLazy(key, make, teardown: teardown) }
      }
      self = InjectedValues(head: builder.chain)
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
    let (next, site) = startWrite(of: UInt(bitPattern: ObjectIdentifier(key)))
    let cell = LazyCell(key: key, site: site, make: make, teardown: teardown)
    finishWrite(LazyBox(cell, next: next, site: site))
    ownsLazyValues = true
  }
}
