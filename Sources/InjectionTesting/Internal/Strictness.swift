import Testing

// How a test is found to be strict, for the traits that need to know: each strict trait
// conforms to `StrictnessTrait`, so that `.injecting` finds the strict traits of its test without
// naming their type, and neither public trait depends on the other.

/// A trait that makes a test strict, with the keys it allows to fall back.
protocol StrictnessTrait: Trait {
  /// The identities of the keys whose reads may fall back to a global value or default.
  func allowedKeyIdentities() -> Set<ObjectIdentifier>
}

extension FallbackReporter {
  /// The keys that the strict traits of `test` allow, together; `nil` if `test` has none.
  static func allowedKeys(for test: Test) -> Set<ObjectIdentifier>? {
    let traits = test.traits.compactMap { $0 as? any StrictnessTrait }
    guard !traits.isEmpty else { return nil }
    return traits.reduce(into: Set<ObjectIdentifier>()) { $0.formUnion($1.allowedKeyIdentities()) }
  }

  /// A reporter for `test` with the allow-lists of all its strict traits, if it has any.
  static func forStrictTest(_ test: Test) -> FallbackReporter? {
    allowedKeys(for: test).map { FallbackReporter(allowing: $0, test: test) }
  }
}
