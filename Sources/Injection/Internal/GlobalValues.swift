import CInjectionSupport

/// The global values: what `InjectedValues[\.x] = v`, `@Injected`'s setter and `Self[Key.self] = v`
/// outside an update closure set, and what `resetGlobal` removes.
///
/// A read must take no lock when its key has never been set globally, must see a global change at
/// once, and reads of one key from many threads must not wait for each other. The layout that
/// gives all three:
///
/// - Each key ever set globally owns a `GlobalCell`, created on its first global write and never
///   freed (removing the value empties the cell). The cell's value is guarded by a read-write
///   lock, so readers share it.
/// - A table maps keys to cells: open addressing in raw memory, whose words are read and written
///   atomically (C11 atomics, see CInjectionSupport), so a reader takes no lock on any platform
///   the package declares. A new key is written into the current table while it is at most half
///   full; then a table twice as large replaces it, and its address is published in
///   `injection_global_table`.
/// - Replaced tables are kept, never freed, since a reader may still be probing one. Their sizes
///   double, so all of them together take less memory than the current one: memory grows
///   linearly with the number of keys ever set globally.
///
/// A read of a key never set globally costs one atomic load (and, once any key is set, one short
/// probe). A replaced value is released after its cell's lock is dropped, since its
/// deinitializer is user code.
@usableFromInline
enum GlobalValues {
  /// Returns the cell of `key` in the table at `table`, if the key was ever set globally.
  static func cell(for key: UInt, in table: UInt) -> Unmanaged<GlobalCell>? {
    let slots = UnsafeMutablePointer<UInt>(bitPattern: table).unsafelyUnwrapped
    let mask = Int(slots[0]) - 1  // the capacity, written before the table was published
    var index = KeyTable.home(of: key, mask: mask)
    while true {
      let found = injection_load_acquire(slots + 1 + 2 * index)
      if found == key {
        let cell = injection_load_acquire(slots + 2 + 2 * index)
        return Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: cell).unsafelyUnwrapped)
      }
      if found == 0 { return nil }
      index = (index &+ 1) & mask
    }
  }

  /// Whether a global value is set for `key`.
  static func isSet(_ key: UInt) -> Bool {
    box(for: key) != nil
  }

  /// The global override of `key`, if one is set.
  static func box(for key: UInt) -> Node? {
    let table = injection_global_table_load()
    return table == 0 ? nil : box(for: key, in: table)
  }

  /// The global override of `key`, if one is set, given the current table.
  @usableFromInline
  static func box(for key: UInt, in table: UInt) -> Node? {
    cell(for: key, in: table)?._withUnsafeGuaranteedRef { $0.withBox { $0 } }
  }

  /// Sets (or, with `nil`, removes) the global override of `key`; returns the one it replaces,
  /// for the caller to release outside any lock.
  @discardableResult
  static func setBox(_ box: Node?, for key: UInt) -> Node? {
    let cell = writer.withLock { state -> GlobalCell? in
      if let cell = state.cell(for: key) { return cell }
      guard box != nil else { return nil }
      return state.addCell(for: key)
    }
    return cell?.exchange(box)
  }

  /// Removes every global value; returns the ones removed.
  static func removeAll() -> [Node] {
    let cells = writer.withLock { $0.cells }
    return cells.compactMap { $0.exchange(nil) }
  }

  /// Every global override that is set, in no particular order.
  static var boxes: [Node] {
    writer.withLock { $0.cells }.compactMap { $0.withBox { $0 } }
  }

  /// What only writers touch, under one lock.
  private struct WriterState: @unchecked Sendable {
    // Safe: used only inside `writer.withLock`; the tables' memory is read by readers through
    // atomic loads only, and written here through atomic stores only.

    /// Every cell ever created, kept alive forever: readers hold no reference to them.
    var cells: [GlobalCell] = []
    /// The slots of every table ever published, kept forever: readers hold no reference to them.
    /// Word 0 is the capacity; slot `i` is the key (0 while empty) at `1 + 2i` and the cell's
    /// address at `2 + 2i`. A writer stores the cell, then the key with release ordering; a
    /// reader loads the key with acquire ordering, then the cell.
    var tables: [UnsafeMutablePointer<UInt>] = []
    var count = 0

    func cell(for key: UInt) -> GlobalCell? {
      guard let table = tables.last else { return nil }
      return GlobalValues.cell(for: key, in: UInt(bitPattern: table))?.takeUnretainedValue()
    }

    mutating func addCell(for key: UInt) -> GlobalCell {
      let cell = GlobalCell(key: key)
      cells.append(cell)
      let capacity = tables.last.map { Int($0[0]) } ?? 0
      if (count + 1) * 2 > capacity {
        let grown = Self.makeTable(capacity: max(16, capacity * 2))
        for old in cells.dropLast() { Self.insert(old, in: grown) }
        Self.insert(cell, in: grown)
        tables.append(grown)
        injection_global_table_store(UInt(bitPattern: grown))
      } else {
        Self.insert(cell, in: tables.last!)
      }
      count += 1
      return cell
    }

    private static func makeTable(capacity: Int) -> UnsafeMutablePointer<UInt> {
      let slots = UnsafeMutablePointer<UInt>.allocate(capacity: 1 + 2 * capacity)
      slots.initialize(repeating: 0, count: 1 + 2 * capacity)
      slots[0] = UInt(capacity)
      return slots
    }

    private static func insert(_ cell: GlobalCell, in slots: UnsafeMutablePointer<UInt>) {
      let mask = Int(slots[0]) - 1
      var index = KeyTable.home(of: cell.key, mask: mask)
      while injection_load_acquire(slots + 1 + 2 * index) != 0 { index = (index + 1) & mask }
      let address = UInt(bitPattern: Unmanaged.passUnretained(cell).toOpaque())
      injection_store_release(slots + 2 + 2 * index, address)
      injection_store_release(slots + 1 + 2 * index, cell.key)
    }
  }

  private static let writer = Locked(WriterState())
}

/// The global value of one key.
final class GlobalCell: @unchecked Sendable {
  // Safe: `stored` is read and written only while holding `lock`, declared beside it.
  private let lock = ReadWriteLock()
  private var stored: Node?
  /// The key whose value this cell holds.
  let key: UInt

  init(key: UInt) { self.key = key }

  /// Runs `body` with the global override (or `nil`) while holding the lock for reading. `body`
  /// copies the value out; it runs no user code.
  func withBox<Result>(_ body: (Node?) -> Result) -> Result {
    lock.withReadLock { body(stored) }
  }

  /// Replaces the global override and returns the one replaced, for the caller to release after
  /// the lock is dropped.
  func exchange(_ box: Node?) -> Node? {
    lock.withWriteLock {
      let old = stored
      stored = box
      return old
    }
  }
}
