// Editing a value's own overrides: the nodes at the top of its chain, of its layer. Nodes never
// change, so an edit relinks copies of the nodes above the one it removes.

extension Node {
  /// How many overrides a value links one by one above its base before it indexes them.
  static let maximumOwnBoxes: Int = 4
  /// A scope whose parent's chain is longer than this starts from the parent's compacted chain.
  @usableFromInline static let maximumParentHops: Int32 = 3
  /// A chain longer than this is compacted before it is bound as a task's values. Scopes never
  /// build one (their parent has at most `maximumParentHops`, their own writes at most
  /// `maximumOwnBoxes` boxes and one index); a snapshot written many times, or a whole snapshot
  /// assigned to `$0`, can.
  @usableFromInline static let maximumBoundHops: Int32 = 8

  /// Prepares the own overrides of layer `layer` at the top of the chain at `head` for a new
  /// override of `key`, and returns what the new box links to.
  ///
  /// The two levels of optional mean different things:
  /// - `.none`: the box links to `head` itself, unchanged. The caller then moves its reference to
  ///   `head` into the box instead of retaining `head` again (a retain and a release fewer per
  ///   write of a new key).
  /// - `.some(nil)`: the box links to an empty chain (the only override was of `key`).
  /// - `.some(node)`: the box links to `node`, a chain rebuilt without `key`'s own override.
  ///
  /// An own override of `key` is removed, so that rewriting a key keeps one value alive. The own
  /// overrides are at most `maximumOwnBoxes` boxes and one index below them: when a new key would
  /// exceed that, the boxes move into a new index.
  @usableFromInline
  static func unlinking(_ key: UInt, from head: Node?, layer: UInt32) -> Node?? {
    var boxCount = 0
    var position: Int?
    var ownIndex: IndexNode?
    // Walked unretained, as a lookup is: `head` keeps every node alive.
    var below = head.map { Unmanaged.passUnretained($0) }
    while let current = below {
      let (nodeLayer, nodeKind, nodeKey, next) = current._withUnsafeGuaranteedRef {
        ($0.layer, $0.kind, $0.key, $0.nextUnretained)
      }
      guard nodeLayer == layer else { break }
      below = next
      if nodeKind == .index {
        // The only node of its kind.
        ownIndex = unsafeDowncast(current.takeUnretainedValue(), to: IndexNode.self)
        break
      }
      if nodeKey == key { position = boxCount }
      boxCount += 1
    }
    if let position {
      return removing(position, from: head!)
    } else if let ownIndex, ownIndex.box(for: key) != nil {
      let remaining = IndexNode(
        ownIndex.boxes.filter { $0.key != key },
        layer: layer,
        next: below?.takeUnretainedValue()
      )
      return relinking(boxCount, from: head, onto: remaining)
    } else if boxCount < maximumOwnBoxes {
      // The usual case, a new key: nothing to change. Only the own index, if there is one, was
      // retained on the way (`ownIndex` holds it), and it is released on return.
      return .none
    } else {
      let node = below?.takeUnretainedValue()
      var boxes: [Node] = []
      var current = head
      for _ in 0..<boxCount {
        boxes.append(current!)
        current = current!.next
      }
      boxes += ownIndex?.boxes ?? []
      return IndexNode(boxes, layer: layer, next: node)
    }
  }

  /// The chain from `node` without its node at `position`; the nodes above it are relinked.
  private static func removing(_ position: Int, from node: Node) -> Node? {
    position == 0 ? node.next : node.relinked(to: removing(position - 1, from: node.next!))
  }

  /// The first `count` nodes from `node`, relinked onto `bottom`.
  private static func relinking(_ count: Int, from node: Node?, onto bottom: Node?) -> Node? {
    guard count > 0, let node else { return bottom }
    return node.relinked(to: relinking(count - 1, from: node.next, onto: bottom))
  }
}

/// The overrides a value wrote itself, innermost first: the boxes at the top of its chain, of its
/// layer, and those of the index below them, if any. Walking them allocates nothing and, but for
/// the boxes of an index, retains nothing: the value's chain keeps them alive while it is not
/// written.
struct OwnBoxes: Sequence, IteratorProtocol {
  private var node: Unmanaged<Node>?
  private let layer: UInt32?
  private var indexed: IndexingIterator<[Node]>?

  init(head: Node?, layer: UInt32?) {
    self.node = head.map { Unmanaged.passUnretained($0) }
    self.layer = layer
  }

  mutating func next() -> Unmanaged<Node>? {
    if let box = indexed?.next() { return Unmanaged.passUnretained(box) }
    guard let layer, let current = node else { return nil }
    let (nodeLayer, kind, next) = current._withUnsafeGuaranteedRef {
      ($0.layer, $0.kind, $0.nextUnretained)
    }
    guard nodeLayer == layer else { return nil }
    node = next
    guard kind == .index else { return current }
    indexed = current._withUnsafeGuaranteedRef {
      unsafeDowncast($0, to: IndexNode.self).boxes.makeIterator()
    }
    return self.next()
  }
}
