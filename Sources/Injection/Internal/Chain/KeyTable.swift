/// An open-addressing hash table from keys to nodes.
///
/// Keys are the bit patterns of `ObjectIdentifier(Key.self)`; `0` marks an empty slot. Capacity
/// is a power of two and at least twice the count, so linear probing stays short however many
/// keys are stored. An index builds its table once and never changes it after.
struct KeyTable: Sendable {
  struct Slot: Sendable {
    var key: UInt = 0
    var node: Node?
    /// `node`, unretained, for lookups that retain nothing (`node` keeps it alive).
    var unretained: Unmanaged<Node>?
  }

  private var slots: [Slot] = []
  private(set) var count = 0

  /// Creates an empty table with room for `capacity` nodes without rehashing.
  init(capacity: Int) {
    if capacity > 0 { rehash(capacity: capacity * 2) }
  }

  /// The first slot to probe for `key`: a multiplicative (Fibonacci) hash of its address.
  @inline(__always)
  static func home(of key: UInt, mask: Int) -> Int {
    Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
  }

  /// Returns the node stored for `key`, unretained (the table keeps it alive), if any.
  func find(_ key: UInt) -> Unmanaged<Node>? {
    guard !slots.isEmpty else { return nil }
    let mask = slots.count &- 1
    var index = Self.home(of: key, mask: mask)
    while true {
      let found = slots[index].key
      if found == key { return slots[index].unretained }
      if found == 0 { return nil }
      index = (index &+ 1) & mask
    }
  }

  /// Stores `node` for `key`, unless a node is stored for it already.
  mutating func insertIfAbsent(_ node: Node, for key: UInt) {
    if find(key) != nil { return }
    if slots.count < (count + 1) * 2 {
      rehash(capacity: Swift.max(4, slots.count * 2, (count + 1) * 2))
    }
    let mask = slots.count - 1
    var index = Self.home(of: key, mask: mask)
    while slots[index].key != 0 { index = (index + 1) & mask }
    slots[index] = Slot(key: key, node: node, unretained: Unmanaged.passUnretained(node))
    count += 1
  }

  /// Every stored node, in no particular order.
  var nodes: [Node] {
    slots.compactMap(\.node)
  }

  private mutating func rehash(capacity: Int) {
    var size = 1
    while size < capacity { size <<= 1 }
    let old = slots
    slots = Array(repeating: Slot(), count: size)
    count = 0
    for slot in old { if let node = slot.node { insertIfAbsent(node, for: slot.key) } }
  }
}
