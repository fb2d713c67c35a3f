/// An open-addressing hash table from keys to nodes, which owns its slots.
///
/// Keys are the bit patterns of `ObjectIdentifier(Key.self)`; `0` marks an empty slot. The table
/// allocates, initializes and frees its slots itself, so an index that holds it looks keys up in
/// memory whose life it controls, and a lookup allocates and retains nothing. It cannot be
/// copied by accident: `copy()` makes a table with slots of its own. Capacity is a power of two
/// and at least twice the count, so linear probing stays short however many keys are stored.
struct KeyTable: ~Copyable {
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

  /// Empty (no address) while the table is empty, so an empty table allocates nothing.
  private var slots = UnsafeMutableBufferPointer<Slot>(start: nil, count: 0)
  private(set) var count = 0

  /// Creates an empty table with room for `capacity` nodes without rehashing.
  init(capacity: Int) {
    if capacity > 0 { rehash(capacity: capacity * 2) }
  }

  deinit {
    slots.deinitialize()
    slots.deallocate()
  }

  /// A table with the same keys and nodes, in slots of its own.
  func copy() -> KeyTable {
    var copy = KeyTable(capacity: 0)
    copy.slots = .allocate(capacity: slots.count)
    _ = copy.slots.initialize(fromContentsOf: slots)
    copy.count = count
    return copy
  }

  /// The first slot to probe for `key`: a multiplicative (Fibonacci) hash of its address.
  @inline(__always)
  static func home(of key: UInt, mask: Int) -> Int {
    Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
  }

  /// Returns the node stored for `key`, unretained (the table keeps it alive), if any.
  @inline(__always)
  func find(_ key: UInt) -> Unmanaged<Node>? {
    guard let base = slots.baseAddress else { return nil }
    let mask = slots.count &- 1
    var index = Self.home(of: key, mask: mask)
    while true {
      let found = base[index].key
      if found == key { return base[index].unretained }
      if found == 0 { return nil }
      index = (index &+ 1) & mask
    }
  }

  /// Stores `node` for `key`, replacing any node stored for it.
  mutating func insert(_ node: Node, for key: UInt) {
    if let index = slotIndex(of: key) {
      slots[index] = Slot(key: key, node: node)
      return
    }
    if slots.count < (count + 1) * 2 {
      rehash(capacity: Swift.max(4, slots.count * 2, (count + 1) * 2))
    }
    let mask = slots.count - 1
    var index = Self.home(of: key, mask: mask)
    while slots[index].key != 0 { index = (index + 1) & mask }
    slots[index] = Slot(key: key, node: node)
    count += 1
  }

  /// Stores `node` for `key` unless a node is stored for it already.
  mutating func insertIfAbsent(_ node: Node, for key: UInt) {
    if slotIndex(of: key) == nil { insert(node, for: key) }
  }

  /// Calls `body` with every stored key and node, in no particular order.
  func forEach(_ body: (UInt, Node) -> Void) {
    for slot in slots where slot.key != 0 {
      body(slot.key, slot.node!)
    }
  }

  /// Every stored node, in no particular order.
  var nodes: [Node] {
    slots.compactMap { $0.key == 0 ? nil : $0.node }
  }

  private func slotIndex(of key: UInt) -> Int? {
    guard !slots.isEmpty else { return nil }
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
    let old = slots
    slots = .allocate(capacity: size)
    slots.initialize(repeating: Slot(key: 0, node: nil))
    count = 0
    for slot in old where slot.key != 0 {
      insert(slot.node!, for: slot.key)
    }
    old.deinitialize()
    old.deallocate()
  }
}

// Safe: the slots are written only while the table is built, by the one caller that owns it;
// an index that holds a table never changes it.
extension KeyTable: @unchecked Sendable {}
extension KeyTable.Slot: Sendable {}
