// What provenance reports: where a key's value comes from, and the overrides a value holds.

extension InjectedValues {
  /// Where these values get the dependency that `key` names: see `source(of:)`.
  func source(ofKey key: any InjectionKey.Type) -> InjectionSource {
    let id = UInt(bitPattern: ObjectIdentifier(key))
    if let box = Node.find(id, from: chain)?.takeUnretainedValue() {
      return box.overrideDescription!.site.source
    }
    return GlobalValues.box(for: id) == nil ? .defaultValue : .global
  }

  /// The overrides visible in these values, innermost first.
  var visibleOverrides: [(key: any InjectionKey.Type, value: String, site: OverrideSite)] {
    guard let head = chain else { return [] }
    let boxes = IndexNode(indexing: head).boxes
    return boxes.map { box in
      let (value, site) = box.overrideDescription!
      return (box.overrideKey!, value, site)
    }.sorted {
      $0.site.depth != $1.site.depth ? $0.site.depth > $1.site.depth : "\($0.key)" < "\($1.key)"
    }
  }

  static func abbreviated(_ text: String) -> String {
    text.count <= 80 ? text : text.prefix(77) + "..."
  }
}

extension OverrideSite {
  /// Where the override was set, as `source(of:)` reports it.
  var source: InjectionSource {
    switch kind {
    case .scope: .scope(fileID: fileID, line: Int(line))
    case .snapshot: .snapshot
    case .global: .global
    }
  }
}
