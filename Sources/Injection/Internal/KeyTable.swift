/// An open-addressing hash table from key types to elements.
///
/// Keys are the bit patterns of `ObjectIdentifier(Key.self)`; `0` marks an empty slot. The
/// table is a value type backed by one `ContiguousArray`, so copying it is copy-on-write and a
/// lookup allocates nothing. Capacity is a power of two and at least twice the count, so linear
/// probing stays short no matter how many keys are stored: this is what keeps a read with 64
/// overrides, or under 10 nested scopes, as fast as a read with one.
@usableFromInline
struct KeyTable<Element> {
  @usableFromInline
  struct Slot {
    @usableFromInline var key: UInt
    @usableFromInline var element: Element?
  }

  /// `nil` while the table is empty, so copying an empty table retains nothing.
  @usableFromInline var slots: ContiguousArray<Slot>?
  @usableFromInline var count: Int

  @inlinable
  init() {
    slots = nil
    count = 0
  }

  /// Creates an empty table with room for `capacity` elements without rehashing.
  init(capacity: Int) {
    slots = nil
    count = 0
    if capacity > 0 { rehash(capacity: capacity * 2) }
  }

  /// The table's key for `type`.
  @inlinable @inline(__always)
  static func key(_ type: Any.Type) -> UInt {
    UInt(bitPattern: ObjectIdentifier(type))
  }

  /// The first slot to probe for `key`: a multiplicative (Fibonacci) hash of its address.
  @inlinable @inline(__always)
  static func home(of key: UInt, mask: Int) -> Int {
    Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
  }

  /// Returns the element stored for `key`, if any.
  @inlinable
  func find(_ key: UInt) -> Element? {
    guard let slots else { return nil }
    return slots.withUnsafeBufferPointer { buffer in
      let mask = buffer.count &- 1
      var index = Self.home(of: key, mask: mask)
      while true {
        let found = buffer[index].key
        if found == key { return buffer[index].element }
        if found == 0 { return nil }
        index = (index &+ 1) & mask
      }
    }
  }

  /// Stores `element` for `key`, replacing any element already stored for it.
  @usableFromInline
  mutating func insert(_ element: Element, for key: UInt) {
    if let index = slotIndex(of: key) {
      slots![index].element = element
      return
    }
    let capacity = slots?.count ?? 0
    if capacity < (count + 1) * 2 {
      rehash(capacity: Swift.max(4, capacity * 2, (count + 1) * 2))
    }
    let mask = slots!.count - 1
    var index = Self.home(of: key, mask: mask)
    while slots![index].key != 0 { index = (index + 1) & mask }
    slots![index] = Slot(key: key, element: element)
    count += 1
  }

  /// Stores `element` for `key` unless an element is stored for it already.
  mutating func insertIfAbsent(_ element: Element, for key: UInt) {
    if slotIndex(of: key) == nil { insert(element, for: key) }
  }

  /// Calls `body` with every stored key and element, in no particular order.
  func forEach(_ body: (UInt, Element) -> Void) {
    for slot in slots ?? [] where slot.key != 0 {
      body(slot.key, slot.element!)
    }
  }

  /// Every stored element, in no particular order.
  var elements: [Element] {
    (slots ?? []).compactMap { $0.key == 0 ? nil : $0.element }
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
    slots = ContiguousArray(repeating: Slot(key: 0, element: nil), count: size)
    count = 0
    for slot in old where slot.key != 0 {
      insert(slot.element!, for: slot.key)
    }
  }
}

extension KeyTable: Sendable where Element: Sendable {}
extension KeyTable.Slot: Sendable where Element: Sendable {}
