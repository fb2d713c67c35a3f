/// Many overrides in one hash table, so that a lookup probes once instead of walking them.
///
/// An index either ends a chain, holding every override visible at that point (see
/// `Node.compacted()`), or holds the writes made to one value and links to the chain below them
/// (see `Node.unlinking(_:from:layer:)`).
@usableFromInline
final class IndexNode: Node, @unchecked Sendable {
  // Safe: as `Node`; adds only `let` properties of `Sendable` types, among them the table,
  // which owns its slots and is never written after `init`.
  /// The indexed boxes, each a `Box<Key>` stored under its key, in slots this node owns.
  private let table: KeyTable
  /// The strict-mode observer in effect at the end of a chain this index ends.
  private let endObserver: (any InjectionFallbackObserver)?

  /// Indexes every override visible from `head`, ending the chain.
  init(indexing head: Node) {
    var table = KeyTable(capacity: min(Int(head.hops), 64))
    var node: Node? = head
    while let current = node {
      current.collect(into: &table)
      node = current.next
    }
    self.table = table
    self.endObserver = head.observer
    super.init(kind: .index, next: nil, isObserved: endObserver != nil, depth: head.depth)
  }

  /// Indexes `boxes` (no two with the same key), written by the value of `layer`, linked to
  /// `next`.
  ///
  /// A designated initializer rather than a convenience one, which made scope entry with many
  /// overrides markedly dearer (Docs/Performance.md).
  init(_ boxes: [Node], layer: UInt32, next: Node?) {
    var table = KeyTable(capacity: boxes.count)
    for box in boxes { table.insert(box, for: box.key) }
    self.table = table
    self.endObserver = nil
    super.init(
      kind: .index,
      next: next,
      layer: layer,
      depth: boxes.map { $0.depth }.max() ?? next?.depth ?? 0
    )
  }

  private init(
    table: consuming KeyTable,
    endObserver: (any InjectionFallbackObserver)?,
    layer: UInt32,
    next: Node?,
    depth: Int
  ) {
    self.table = table
    self.endObserver = endObserver
    super.init(
      kind: .index,
      next: next,
      layer: layer,
      isObserved: endObserver != nil || (next?.isObserved ?? false),
      depth: depth
    )
  }

  /// The indexed boxes, in no particular order.
  var boxes: [Node] { table.nodes }

  /// The box of `key` in this index, unretained, if it holds one. A direct call, not inlined:
  /// inlined into `Node.find`, the probe made reads through `@Injected` slower.
  @usableFromInline
  func box(for key: UInt) -> Unmanaged<Node>? {
    table.find(key)
  }

  override func findSpecial(_ key: UInt) -> Unmanaged<Node>? {
    box(for: key) ?? Node.find(key, from: next)
  }

  override func relinked(to next: Node?, site: OverrideSite? = nil) -> Node {
    IndexNode(table: table.copy(), endObserver: endObserver, layer: layer, next: next, depth: depth)
  }

  override func collect(into table: inout KeyTable) {
    self.table.forEach { key, box in table.insertIfAbsent(box, for: key) }
  }

  override var ownObserver: (any InjectionFallbackObserver)? { endObserver }
}
