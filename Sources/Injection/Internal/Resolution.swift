/// The paths a read or write takes once it is past the inlined fast path.
extension InjectedValues {
  /// Resolves `Key` when these values hold no override for it: the global fallback, else the
  /// default. Inlined into callers so that it is specialized for `Key`.
  @inlinable
  static func _fallback<Key: InjectionKey>(_ key: Key.Type) -> Key.Value {
    if let box = GlobalValues.shared.box(for: KeyTable<any OverrideBox>.key(Key.self)) {
      return _unbox(box, as: Key.self)
    }
    return _makeDefault(Key.self)
  }

  /// Reads `Key.currentValue`; in debug builds, it first checks for a cycle among defaults.
  @inlinable
  static func _makeDefault<Key: InjectionKey>(_ key: Key.Type) -> Key.Value {
    #if DEBUG
      return DefaultChain.resolving(Key.self) { Key.currentValue }
    #else
      return Key.currentValue
    #endif
  }

  /// Resolves `Key`, which has no override here, when these values have a role.
  @usableFromInline
  func _resolveWithRole<Key: InjectionKey>(_ key: Key.Type) -> Key.Value {
    switch role!.kind {
    case .updateProxy, .probe:
      return Self._activeContext(reading: Key.self).pointee.get(Key.self)
    case .asyncUpdate(let buffer):
      return buffer.get(Key.self)
    case .globalWriter:
      return Self._fallback(Key.self)
    case .observed:
      return _resolve(Key.self, reportingFallbacks: true)
    }
  }

  /// Resolves `Key` from these values: override, else global, else default.
  ///
  /// - Parameters:
  ///   - key: The key to resolve.
  ///   - reportingFallbacks: Whether to tell an observing role about a fallback.
  /// - Returns: The value.
  func _resolve<Key: InjectionKey>(_ key: Key.Type, reportingFallbacks: Bool) -> Key.Value {
    if let value = _override(of: Key.self) { return value }
    if let box = GlobalValues.shared.box(for: KeyTable<any OverrideBox>.key(Key.self)) {
      if reportingFallbacks { role?.observer?.keyFellBack(Key.self, isGlobal: true) }
      return Self._unbox(box, as: Key.self)
    }
    if reportingFallbacks { role?.observer?.keyFellBack(Key.self, isGlobal: false) }
    return Self._makeDefault(Key.self)
  }

  /// Overrides `Key` in these values.
  @inlinable
  mutating func _store<Key: InjectionKey>(
    _ value: Key.Value,
    for key: Key.Type,
    site: OverrideSite
  ) {
    overrides = Box<Key>(value, next: overrides, site: site, depth: depth)
  }

  /// These values, indexed if lookups would otherwise walk too many boxes (as after many
  /// writes to a snapshot outside an update closure).
  @usableFromInline
  func _indexed() -> InjectedValues {
    var values = self
    values._indexIfNeeded()
    return values
  }

  /// Indexes the overrides if lookups would otherwise walk too many boxes.
  @usableFromInline
  mutating func _indexIfNeeded() {
    if let head = overrides, head.unindexedDepth > OverrideIndex.maximumUnindexedDepth {
      overrides = OverrideIndex(indexing: head)
    }
  }

  /// Writes `Key` through a value whose role routes writes elsewhere.
  @usableFromInline
  func _write<Key: InjectionKey>(_ value: Key.Value, for key: Key.Type) {
    switch role!.kind {
    case .updateProxy, .probe:
      Self._activeContext(reading: Key.self).pointee.set(value, for: Key.self)
    case .asyncUpdate(let buffer):
      buffer.set(value, for: Key.self)
    case .globalWriter:
      Self._setGlobal(value, for: Key.self)
    case .observed:
      preconditionFailure("Injection: observed values store their own writes")
    }
  }

  /// Handles `Self[Key.self] = value` outside a synchronous update closure: inside an
  /// asynchronous one (whose `$0` is the task's values), it overrides the key there; elsewhere
  /// it sets the global fallback.
  @usableFromInline
  static func _setFromStaticSubscript<Key: InjectionKey>(_ value: Key.Value, for key: Key.Type) {
    if let buffer = _storage.get().role?.asyncUpdate {
      buffer.set(value, for: Key.self)
    } else {
      _setGlobal(value, for: Key.self)
    }
  }

  /// Sets the global fallback of `Key`.
  @usableFromInline
  static func _setGlobal<Key: InjectionKey>(_ value: Key.Value, for key: Key.Type) {
    let box = Box<Key>(value, next: nil, site: .global, depth: 0)
    GlobalValues.shared.setBox(box, for: KeyTable<any OverrideBox>.key(Key.self))
  }

  /// Sets the global fallback of the key behind `keyPath`.
  ///
  /// The accessor's setter runs on a value whose writes go global. Seed-style setters write
  /// `Self[Key.self]` instead, so no update closure's context may be visible while they run.
  @usableFromInline
  static func _setGlobal<Value>(
    _ value: Value,
    through keyPath: WritableKeyPath<InjectedValues, Value>
  ) {
    let current = _storage.get()
    var writer = current
    writer.role = .globalWriter
    UpdateContext.run(with: nil) {
      if current.role?.asyncUpdate != nil {
        // Inside an asynchronous update closure, whose `$0` is bound as the task's values.
        _storage.withValue(writer) { writer[keyPath: keyPath] = value }
      } else {
        writer[keyPath: keyPath] = value
      }
    }
  }

  /// The context of the update closure (or probe) that `$0` belongs to.
  static func _activeContext(
    reading key: any InjectionKey.Type
  ) -> UnsafeMutablePointer<UpdateContext> {
    guard let context = UpdateContext.active else {
      fatalError(
        "Injection: \(key) was used through the InjectedValues passed to an update closure "
          + "after that closure returned, or on another thread. Use the closure's argument only "
          + "inside the closure; to keep values, take InjectedValues.current inside the scope."
      )
    }
    return context
  }
}
