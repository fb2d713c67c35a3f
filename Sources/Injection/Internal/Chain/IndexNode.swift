/// Many overrides in one hash table, so that a lookup probes once instead of walking them.
///
/// An index either holds every override visible from a chain, and links to what the caller
/// chooses (see `InjectedValues.compacted(_:)` and `merged(_:)`), or holds the writes made to one
/// value and links to the chain below them (see `InjectedValues.unlinking(_:from:layer:)`).
@usableFromInline
final class IndexNode: Node, @unchecked Sendable {
  // Safe: as `Node`; adds only `let` properties of `Sendable` types.
  /// The indexed boxes, each stored under its key.
  private let table: KeyTable
  /// The strict-mode observer in effect at the end of a chain this index holds.
  private let endObserver: (any InjectionFallbackObserver)?

  private init(
    _ table: KeyTable,
    observer: (any InjectionFallbackObserver)?,
    layer: UInt32,
    depth: Int,
    next: Node?
  ) {
    self.table = table
    self.endObserver = observer
    let observed: Bool? = observer != nil ? true : nil  // else as `next`
    super.init(kind: .index, next: next, layer: layer, isObserved: observed, depth: depth)
  }

  /// Indexes every override visible from `head` (inner ones win), linked to `next`.
  convenience init(indexing head: Node, next: Node? = nil) {
    var table = KeyTable(capacity: min(Int(head.hops), 64))
    var node: Node? = head
    while let current = node {
      if current.kind == .box {
        table.insertIfAbsent(current, for: current.key)
      } else if let index = current as? IndexNode {
        for box in index.boxes { table.insertIfAbsent(box, for: box.key) }
      }
      node = current.next
    }
    let layer = OverrideSite.noLayer
    self.init(table, observer: head.observer, layer: layer, depth: head.depth, next: next)
  }

  /// Indexes `boxes` (no two with the same key), written by the value of `layer`, linked to
  /// `next`.
  convenience init(_ boxes: [Node], layer: UInt32, next: Node?) {
    var table = KeyTable(capacity: boxes.count)
    for box in boxes { table.insertIfAbsent(box, for: box.key) }
    let depth = boxes.map(\.depth).max() ?? next?.depth ?? 0
    self.init(table, observer: nil, layer: layer, depth: depth, next: next)
  }

  /// The indexed boxes, in no particular order.
  var boxes: [Node] { table.nodes }

  /// How many boxes the index holds.
  var count: Int { table.count }

  /// The box of `key` in this index, unretained, if it holds one.
  @usableFromInline
  func box(for key: UInt) -> Unmanaged<Node>? {
    table.find(key)
  }

  override func relinked(to next: Node?, site: OverrideSite? = nil) -> Node {
    IndexNode(table, observer: endObserver, layer: layer, depth: depth, next: next)
  }

  override var ownObserver: (any InjectionFallbackObserver)? { endObserver }
}
