import CInjectionSupport

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
  @usableFromInline
  static func keyOverriddenLazily<Value>(
    by keyPath: WritableKeyPath<InjectedValues, Value>
  ) -> any InjectionKey.Type {
    var probe = KeyProbe(recordsAll: false)
    probing(keyPath, with: &probe)
    guard let (key, valueType) = probe.first else {
      fatalError(
        "Injection: lazy(\(keyPath)) needs an accessor whose getter reads one key, "
          + "such as `get { self[DatabaseKey.self] }`; this accessor of \(Value.self) reads none."
      )
    }
    guard valueType == Value.self else {
      fatalError(
        "Injection: lazy(_:_:) was given an accessor of \(Value.self) whose getter reads "
          + "\(key), a key of \(valueType). Use an accessor that reads and writes one key."
      )
    }
    return key
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
