// MARK: - Provenance: where each value comes from

extension InjectedValues: CustomStringConvertible {
  /// A list of the overrides these values hold, innermost first, each with where it was set.
  ///
  /// ```swift
  /// print(InjectedValues.current)
  /// // InjectedValues: 2 overrides, innermost first
  /// //   GreetingKey = MockGreeting(word: "Hi")  ← scope at MyTests/A.swift:12
  /// //   CountKey = 3  ← scope at MyTests/A.swift:9
  /// ```
  ///
  /// Global values and defaults are not listed: ask ``source(of:)-(Key.Type)`` about a key to
  /// see whether it falls back to one of them.
  public var description: String {
    let overrides = visibleOverrides
    var lines = [
      overrides.isEmpty
        ? "InjectedValues: no overrides"
        : "InjectedValues: \(overrides.count) override\(overrides.count == 1 ? "" : "s"), "
          + "innermost first"
    ]
    for (key, value, site) in overrides {
      lines.append("  \(key) = \(Self.abbreviated(value))  ← \(site.source)")
    }
    if _observer != nil {
      lines.append("  (strict: reads that fall back to a global value or default are reported)")
    }
    return lines.joined(separator: "\n")
  }

  /// Returns where these values get the dependency that `key` names.
  ///
  /// ```swift
  /// InjectedValues.current.source(of: GreetingKey.self)   // .defaultValue
  /// ```
  ///
  /// - Parameter key: The key type of the dependency.
  /// - Returns: The scope (with its location) that overrides the key, `.snapshot` if the
  ///   override was set on a values value outside an update closure, `.global` if a global value
  ///   is set for it, or `.defaultValue`.
  public func source<Key: InjectionKey>(of key: Key.Type) -> InjectionSource {
    source(ofKey: Key.self)
  }

  /// Returns where these values get the dependency behind an accessor.
  ///
  /// One line tells why a mock was, or was not, in effect:
  ///
  /// ```swift
  /// print(InjectedValues.current.source(of: \.greeting))
  /// // scope at MyTests/GreeterTests.swift:12
  /// ```
  ///
  /// The accessor's getter runs once to find the key it reads; for a view over several
  /// dependencies, the answer is about the first one it reads.
  ///
  /// - Parameter keyPath: The accessor on `InjectedValues`.
  /// - Returns: The source of the first key the accessor reads (a scope with its location,
  ///   `.snapshot` if the override was set on a values value outside an update closure,
  ///   `.global`, or `.defaultValue`), or `.defaultValue` if it reads none.
  public func source<Value>(of keyPath: KeyPath<InjectedValues, Value>) -> InjectionSource {
    guard let key = Self._keysRead(by: keyPath).first else { return .defaultValue }
    return source(ofKey: key)
  }
}
