// MARK: - Provenance: where each value comes from

extension InjectedValues: CustomStringConvertible {
  /// A list of the overrides these values hold, innermost first, each with where it was set.
  ///
  /// ```swift
  /// print(InjectedValues.current)
  /// // InjectedValues: 2 overrides, innermost first
  /// //   GreetingKey = MockGreeting(word: "Hi")  ← scope at MyTests/GreeterTests.swift:12
  /// //   CountKey = 3  ← scope at MyTests/GreeterTests.swift:9
  /// ```
  ///
  /// Global values and defaults are not listed: ask ``source(of:)-(Key.Type)`` about a key to
  /// see whether it falls back to one of them.
  public var description: String {
    let boxes = visibleOverrides
    var lines = [
      boxes.isEmpty
        ? "InjectedValues: no overrides"
        : "InjectedValues: \(boxes.count) override\(boxes.count == 1 ? "" : "s"), innermost first"
    ]
    for box in boxes {
      lines.append(
        "  \(box.key) = \(Self._abbreviated(box.valueDescription))  ← \(box.site.source)"
      )
    }
    if role?.observer != nil {
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
    let bits = KeyTable<any OverrideBox>.key(Key.self)
    if let box = overrides?.find(bits) {
      return unsafeDowncast(box, to: Box<Key>.self).site.source
    }
    return GlobalValues.shared.box(for: bits) == nil ? .defaultValue : .global
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
    guard let key = keysRead(by: keyPath).first else { return .defaultValue }
    return _source(of: key)
  }

  private func _source<Key: InjectionKey>(of key: Key.Type) -> InjectionSource {
    source(of: Key.self)
  }

  /// The keys the getter behind `keyPath` reads, in order, found by running it once.
  func keysRead<Value>(by keyPath: KeyPath<InjectedValues, Value>) -> [any InjectionKey.Type] {
    var context = UpdateContext(values: self, site: .snapshot, isProbe: true)
    var probe = InjectedValues()
    probe.role = .probe
    withUnsafeMutablePointer(to: &context) { pointer in
      UpdateContext.run(with: pointer) { _ = probe[keyPath: keyPath] }
    }
    return context.keysRead ?? []
  }

  /// The overrides visible in these values, innermost first.
  var visibleOverrides: [any OverrideBox] {
    guard let overrides else { return [] }
    var table = KeyTable<any AnyObject & Sendable>(capacity: overrides.visibleCountBound)
    overrides.collectVisible(into: &table)
    // Every element is a `Box`, which conforms to `OverrideBox`.
    return table.elements.map { $0 as! any OverrideBox }.sorted {
      $0.depth != $1.depth ? $0.depth > $1.depth : "\($0.key)" < "\($1.key)"
    }
  }

  static func _abbreviated(_ text: String) -> String {
    text.count <= 80 ? text : text.prefix(77) + "..."
  }
}
