// Learning which keys an accessor reads, by running its getter once on empty values: for
// `resetGlobal`, `source(of:)`, `lazy` and strict mode's allow-list.

extension InjectedValues {
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

  /// The key that `lazy` overrides: the first key that the getter behind `keyPath` reads, whose
  /// value type must be the accessor's.
  ///
  @inlinable @inline(__always)
  static func keyOverriddenLazily<Value>(
    by keyPath: WritableKeyPath<InjectedValues, Value>
  ) -> any InjectionKey.Type {
    var probe = KeyProbe(recordsAll: false)
    probing(keyPath, with: &probe)
    guard let (key, valueType) = probe.first, valueType == Value.self else {
      lazyAccessorMismatch(keyPath, found: probe.first)
    }
    return key
  }

  /// Stops the program: `lazy` was given an accessor whose getter reads no key (`found` is
  /// `nil`), or a key of another type than the accessor's.
  @usableFromInline
  static func lazyAccessorMismatch<Value>(
    _ keyPath: WritableKeyPath<InjectedValues, Value>,
    found: (key: any InjectionKey.Type, valueType: Any.Type)?
  ) -> Never {
    guard let (key, valueType) = found else {
      fatalError(
        "Injection: lazy(\(keyPath)) needs an accessor whose getter reads one key, "
          + "such as `get { self[DatabaseKey.self] }`; this accessor of \(Value.self) reads none."
      )
    }
    fatalError(
      "Injection: lazy(_:_:) was given an accessor of \(Value.self) whose getter reads "
        + "\(key), a key of \(valueType). Use an accessor that reads and writes one key."
    )
  }

  /// Runs the getter behind `keyPath` once, on values whose chain is a `ProbeNode`, with a
  /// `probe` frame pushed that gives seed-style getters (`Self[Key.self]`) the same chain and
  /// leads the reads that reach the node to `probe`.
  @inlinable @inline(__always)
  static func probing<Value>(
    _ keyPath: KeyPath<InjectedValues, Value>,
    with probe: inout KeyProbe
  ) {
    let node = ProbeNode.shared
    withUnsafeMutablePointer(to: &probe) { probe in
      let frame = ContextFrame(.probe, owner: UInt(bitPattern: probe), chain: node)
      ContextFrame.with(frame) { _ = InjectedValues(head: node)[keyPath: keyPath] }
    }
  }

  /// Tells the probe running on this thread, if any, that its getter read `key`: how a read
  /// that reaches a `ProbeNode` is recorded. Values of a probe that a getter kept and read
  /// elsewhere record nothing.
  static func recordProbedRead(_ key: any InjectionKey.Type, valueType: Any.Type) {
    guard let frame = ContextFrame.top, frame.pointee.kind == .probe,
      let probe = UnsafeMutablePointer<KeyProbe>(bitPattern: frame.pointee.owner)
    else { return }
    if probe.pointee.first == nil { probe.pointee.first = (key, valueType) }
    if probe.pointee.recordsAll { probe.pointee.keys.append(key) }
  }
}

/// What a probe learns: the keys an accessor's getter reads.
@usableFromInline
struct KeyProbe {
  /// The first key read, and its value type.
  @usableFromInline var first: (key: any InjectionKey.Type, valueType: Any.Type)? = nil
  /// Every key read, in order, if `recordsAll`; otherwise empty, so that nothing is allocated.
  @usableFromInline var keys: [any InjectionKey.Type] = []
  @usableFromInline let recordsAll: Bool

  @inlinable
  init(recordsAll: Bool) {
    self.recordsAll = recordsAll
  }
}
