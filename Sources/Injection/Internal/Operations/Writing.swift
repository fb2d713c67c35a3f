import CInjectionSupport

// The one write of an override, which every writer calls, and where seed-style setters write.

extension InjectedValues {
  // The one write of an override, in two halves that every writer calls around making its box:
  // the subscript's setter (and through it seed-style setters and writes to snapshots), `lazy`,
  // and a scope that redeclares a lazy value. Two halves rather than one function that takes a
  // closure making the box: the closure would capture the setter's value and copy it, one retain
  // and release more per scope entry (callgrind).

  /// Starts a write of an override of `key`: returns what its box links to and its site.
  @inlinable @inline(__always)
  mutating func startWrite(of key: UInt) -> (next: Node?, site: OverrideSite) {
    let site = self.site ?? OverrideSite.snapshot(over: head)
    self.site = site
    if head?.layer == site.layer, let edited = Node.unlinking(key, from: head, layer: site.layer) {
      return (edited, site)
    }
    // Moved out, not copied: the box takes this value's reference to its chain, which saves a
    // retain and a release. `finishWrite` links the box in before anything reads `head` again.
    return (head.take(), site)
  }

  /// Ends the write that `startWrite(of:)` started: links `box` at the top of this value's chain.
  @inlinable @inline(__always)
  mutating func finishWrite(_ box: Node) {
    head = box
    keepAliveWhileBuilding()
  }

  /// This value's own overrides, innermost first.
  var ownBoxes: OwnBoxes { OwnBoxes(head: head, layer: site?.layer) }

  // MARK: - Keeping chains alive while an update closure runs

  /// After a write to this value, or when `current` hands out a chain: if an update closure runs in
  /// this task, keeps this chain alive until the next write or until the closure returns (see
  /// `ContextFrame.keep`), whichever value was written: one that the closure derives from the
  /// values being built links to their chain, so keeping its chain keeps theirs.
  @inlinable @inline(__always)
  func keepAliveWhileBuilding() {
    guard let frame = ContextFrame.top else {
      if let head { Self.keepAliveInAsynchronousUpdate(head) }
      return
    }
    if frame.pointee.kind == .update { frame.pointee.keep(head) }
  }

  /// `keepAliveWhileBuilding` for an asynchronous update closure, which has no frame.
  @usableFromInline
  static func keepAliveInAsynchronousUpdate(_ head: Node) {
    UpdateMarker.building(taskHead)?.keepAlive(head)
  }

  // MARK: - Writes by type: `Self[Key.self] = v`

  /// `Self[Key.self] = value`: an override in the values of the update closure the current task
  /// runs, if any; else the global value.
  ///
  /// Inlinable, so that the usual case, a write in a synchronous update closure, is compiled for
  /// `Key` where the setter is: unspecialized, each write looked up the metadata of `Box<Key>` in
  /// the runtime's table (about 360 instructions of a seed-style scope entry, callgrind).
  @inlinable
  static func setFromType<Key: InjectionKey>(_ value: Key.Value, for key: Key.Type) {
    if let frame = ContextFrame.top, let values = frame.pointee.updateValues() {
      if let dropped = values.pointee.writeBehindTheClosure(value, for: Key.self) {
        frame.pointee.holdUntilPopped(dropped)
      }
      return
    }
    setFromTypeOutsideSynchronousUpdates(value, for: Key.self)
  }

  /// `setFromType` when no synchronous update closure of this task runs on this thread: into an
  /// asynchronous update closure's values, else the global value; a probe's getter may not write.
  @usableFromInline
  static func setFromTypeOutsideSynchronousUpdates<Key: InjectionKey>(
    _ value: Key.Value,
    for key: Key.Type
  ) {
    if let frame = ContextFrame.top, frame.pointee.kind == .probe {
      fatalError(
        "Injection: an accessor's getter, run to find the keys it reads, wrote \(Key.self). "
          + "Only accessors whose getters read can be asked about."
      )
    }
    if let marker = UpdateMarker.building(taskHead) {
      if let dropped = marker.values.pointee.writeBehindTheClosure(value, for: Key.self) {
        marker.holdUntilReturned(dropped)
      }
      return
    }
    publishGlobal(Box<Key>(value, next: nil, site: OverrideSite(.global, depth: 0)), of: Key.self)
  }

  /// A seed-style setter's write into the values an update closure builds, which it makes behind
  /// the closure's back: returns the chain these values had if the write dropped it, for the
  /// frame to hold until the closure returns (see `ContextFrame.holdUntilPopped`).
  @inlinable @inline(__always)
  mutating func writeBehindTheClosure<Key: InjectionKey>(
    _ value: Key.Value,
    for key: Key.Type
  ) -> Node? {
    let before = head
    self[Key.self] = value
    guard let before else { return nil }
    let linked = head?.nextUnretained?.toOpaque() == Unmanaged.passUnretained(before).toOpaque()
    return linked ? nil : before
  }

  // MARK: - Values built on first use

  /// Overrides the key behind `keyPath` with a value built on first use: a `LazyBox`, compiled
  /// for `Value`, whose key is learnt by running the accessor's getter.
  @inlinable @inline(__always)
  mutating func declareLazy<Value: Sendable>(
    _ keyPath: WritableKeyPath<InjectedValues, Value>,
    _ make: @escaping @Sendable () -> Value,
    teardown: LazyTeardown<Value>
  ) {
    let key = Self.keyOverriddenLazily(by: keyPath)
    let identity = UInt(bitPattern: ObjectIdentifier(key))
    let (next, site) = startWrite(of: identity)
    let cell = LazyCell.make(key: key, site: site, make: make, teardown: teardown)
    finishWrite(LazyBox(cell, key: identity, next: consume next, site: site))
    ownsLazyValues = true
  }
}
