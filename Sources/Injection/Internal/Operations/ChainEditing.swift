// Editing a value's own overrides: the nodes at the top of its chain, of its layer. Nodes never
// change, so an edit relinks copies of the nodes above the one it removes.

extension InjectedValues {
  /// How many overrides a value links one by one above its own indexes before it indexes them.
  static let maximumOwnBoxes = 4

  /// Prepares the own overrides of layer `layer` at the top of the chain at `head` for a new
  /// override of `key`, and returns what the new box links to:
  ///
  /// - `.none`: the box links to `head` itself, unchanged (the usual case, a new key);
  /// - `.some(nil)`: the box links to an empty chain (the only override was of `key`);
  /// - `.some(node)`: the box links to `node`, a chain rebuilt without `key`'s own override, or
  ///   with the own boxes moved into an index.
  ///
  /// An own override of `key` is removed, so that rewriting a key keeps one value alive. The own
  /// overrides are at most `maximumOwnBoxes` boxes above own indexes whose sizes at least double
  /// downwards: when the boxes are full, they move into a new index, which absorbs the indexes
  /// below it that are no larger. So n writes of new keys take time linear in n, and a lookup
  /// visits a few boxes and a logarithmic number of indexes.
  @usableFromInline
  static func unlinking(_ key: UInt, from head: Node?, layer: UInt32) -> Node?? {
    var boxCount = 0
    var own: Node?
    var holder: IndexNode?
    var node = head
    while let current = node, current.layer == layer {
      if let index = current as? IndexNode {
        if holder == nil, index.box(for: key) != nil { holder = index }
      } else {
        if current.key == key { own = current }
        boxCount += 1
      }
      node = current.next
    }
    if let own {
      return relinking(to: own, from: head, onto: own.next)
    } else if let holder {
      let remaining = IndexNode(
        holder.boxes.filter { $0.key != key },
        layer: layer,
        next: holder.next
      )
      return relinking(to: holder, from: head, onto: remaining)
    } else if boxCount < maximumOwnBoxes {
      return .none
    }
    // The boxes are full: they move into a new index, with the own indexes below that are no
    // larger than it. In the global values' chain, which lives as long as the process, each is
    // relinked to nothing, so that a box in an index keeps no box below it alive and a value that
    // its key's next write replaces is released by that write; other chains end with their value.
    let detach = layer & 3 == OverrideSite.Kind.global.rawValue
    var boxes: [Node] = []
    var below = head
    while let current = below, current.layer == layer, current.kind == .box {
      boxes.append(detach ? current.relinked(to: nil) : current)
      below = current.next
    }
    while let index = below as? IndexNode, index.layer == layer, index.count <= boxes.count {
      boxes += index.boxes
      below = index.next
    }
    return IndexNode(boxes, layer: layer, next: below)
  }

  /// The nodes from `node` down to `end`, which is replaced by `bottom`, relinked onto it.
  private static func relinking(to end: Node, from node: Node?, onto bottom: Node?) -> Node? {
    guard let node, node !== end else { return bottom }
    return node.relinked(to: relinking(to: end, from: node.next, onto: bottom))
  }

  /// A chain that resolves every key as the one at `head` does, with at most two nodes: `head`
  /// relinked to one index of everything below it. Made once per node and kept, so that every
  /// scope entered under a long chain shares the work. The cache cannot form a cycle: what it
  /// holds refers only to the nodes below `head`.
  @usableFromInline
  static func compacted(_ head: Node) -> Node {
    if let cached = head.cacheLock.withLock({ head.compactedCache }) { return cached }
    let made = head.relinked(to: head.next.map { IndexNode(indexing: $0) })
    return head.cacheLock.withLock {
      if let cached = head.compactedCache { return cached }
      head.compactedCache = made
      return made
    }
  }
}
