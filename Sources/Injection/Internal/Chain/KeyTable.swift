/// An open-addressing hash table from keys to nodes.
///
/// Keys are the bit patterns of `ObjectIdentifier(Key.self)`; `0` marks an empty slot. The table
/// is a value type backed by one `ContiguousArray`, so copying it is copy-on-write and a lookup
/// allocates nothing. Capacity is a power of two and at least twice the count, so linear probing
/// stays short however many keys are stored.
struct KeyTable {
  struct Slot {
    var key: UInt
    var node: Node?
    /// `node`, unretained, for lookups that retain nothing (`node` keeps it alive).
    var unretained: Unmanaged<Node>?

    init(key: UInt, node: Node?) {
      self.key = key
      self.node = node
      self.unretained = node.map { Unmanaged.passUnretained($0) }
    }
  }

  /// `nil` while the table is empty, so copying an empty table retains nothing.
  private(set) var slots: ContiguousArray<Slot>?
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
    guard let slots else { return nil }
    return slots.withUnsafeBufferPointer {
      Self.find(key, in: $0.baseAddress!, mask: $0.count &- 1)
    }
  }

  /// Returns the node stored for `key` in the slots at `slots`, `mask + 1` of them, unretained.
  @inline(__always)
  static func find(_ key: UInt, in slots: UnsafePointer<Slot>, mask: Int) -> Unmanaged<Node>? {
    var index = home(of: key, mask: mask)
    while true {
      let found = slots[index].key
      if found == key { return slots[index].unretained }
      if found == 0 { return nil }
      index = (index &+ 1) & mask
    }
  }

  /// The address of the slots and the mask of their count, for lookups that must not retain the
  /// storage: valid while this table lives unchanged, since nothing moves its storage then.
  var lookup: (slots: UnsafePointer<Slot>, mask: Int)? {
    slots.map { slots in slots.withUnsafeBufferPointer { ($0.baseAddress!, $0.count - 1) } }
  }

  /// Stores `node` for `key`, replacing any node stored for it.
  mutating func insert(_ node: Node, for key: UInt) {
    if let index = slotIndex(of: key) {
      slots![index] = Slot(key: key, node: node)
      return
    }
    let capacity = slots?.count ?? 0
    if capacity < (count + 1) * 2 {
      rehash(capacity: Swift.max(4, capacity * 2, (count + 1) * 2))
    }
    let mask = slots!.count - 1
    var index = Self.home(of: key, mask: mask)
    while slots![index].key != 0 { index = (index + 1) & mask }
    slots![index] = Slot(key: key, node: node)
    count += 1
  }

  /// Stores `node` for `key` unless a node is stored for it already.
  mutating func insertIfAbsent(_ node: Node, for key: UInt) {
    if slotIndex(of: key) == nil { insert(node, for: key) }
  }

  /// Calls `body` with every stored key and node, in no particular order.
  func forEach(_ body: (UInt, Node) -> Void) {
    for slot in slots ?? [] where slot.key != 0 {
      body(slot.key, slot.node!)
    }
  }

  /// Every stored node, in no particular order.
  var nodes: [Node] {
    (slots ?? []).compactMap { $0.key == 0 ? nil : $0.node }
  }

  private func slotIndex(of key: UInt) -> Int? {
    guard let slots else { return nil }
    let mask = slots.count - 1
    var index = Self.home(of: key, mask: mask)
    while slots[index].key != 0 {
      if slots[index].key == key { return index }
      index = (index + 1) & mask
    }
    return nil
  }

  private mutating func rehash(capacity: Int) {
    var size = 1
    while size < capacity { size <<= 1 }
    let old = slots ?? []
    slots = ContiguousArray(repeating: Slot(key: 0, node: nil), count: size)
    count = 0
    for slot in old where slot.key != 0 {
      insert(slot.node!, for: slot.key)
    }
  }
}

extension KeyTable: Sendable {}
extension KeyTable.Slot: Sendable {}
