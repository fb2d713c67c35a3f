import CInjectionSupport

/// The global values: what `InjectedValues[\.x] = v`, `@Injected`'s setter and `Self[Key.self] = v`
/// outside an update closure set, and what `resetGlobal` removes.
///
/// A read must take no lock when its key has never been set globally, must see a global change at
/// once, and reads of one key from many threads must not wait for each other. The layout that
/// gives all three:
///
/// - Each key ever set globally owns a `GlobalCell`, created on its first global write and never
///   freed (removing the value empties the cell). Readers copy its value in a read section
///   (below), without retaining its box or taking a lock.
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
/// probe). A replaced value is released once no reader can still be copying it, and after every
/// lock is dropped, since its deinitializer is user code.
///
/// ## Read sections
///
/// The one invariant that makes reading a box without retaining it safe: **a writer releases a
/// replaced box only after every read section that could have loaded it has ended.**
///
/// - A reader begins a section (`injection_global_read_begin`), loads the box's address from the
///   cell (sequentially consistent), copies the value out of the box (retaining what the value
///   refers to), and ends the section (`injection_global_read_end`). Between begin and end it runs
///   no user code, and the section never nests.
/// - The copy, and the retains it makes, must happen before the end: the end is a call the compiler
///   cannot see into, so neither the optimizer nor ARC moves them past it. Nothing may use the box
///   itself after the end; only the copied value leaves the section.
/// - A writer exchanges the cell's word (sequentially consistent), then drains
///   (`injection_global_readers_drain`): it waits until every section that began before the
///   exchange has ended. Sections count themselves in striped counters, so readers on different
///   threads seldom share a cache line; `Readers.c` says why the drain cannot miss one. Only then
///   is the old box released, after every lock is dropped.
/// - No signal handler may read a global value, and the process must not `fork()` during a
///   section.
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

  /// The global override of `key`, if one is set, given the current table, without retaining
  /// it: if it returns a box, a read section has begun, which `endReading(_:)` must end, given
  /// the `section` returned with it, as soon as the value is copied out (see "Read sections").
  @usableFromInline
  static func beginReading(
    _ key: UInt,
    in table: UInt
  ) -> (box: Unmanaged<Node>, section: UnsafeMutableRawPointer?)? {
    guard let cell = cell(for: key, in: table) else { return nil }
    let section = injection_global_read_begin()
    if let box = cell._withUnsafeGuaranteedRef({ $0.loadBox() }) { return (box, section) }
    injection_global_read_end(section)
    return nil
  }

  /// Ends the read section that `beginReading(_:in:)` began and returned `section` for.
  @usableFromInline
  static func endReading(_ section: UnsafeMutableRawPointer?) {
    injection_global_read_end(section)
  }

  /// The global override of `key`, if one is set.
  static func box(for key: UInt) -> Node? {
    let table = injection_global_table_load()
    guard table != 0, let cell = cell(for: key, in: table) else { return nil }
    return cell._withUnsafeGuaranteedRef { $0.withBox { $0 } }
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
///
/// The box's address sits in a word of raw memory, read and exchanged atomically, and the cell
/// holds one reference to the box. Readers use it inside read sections (see `GlobalValues`), so a
/// replaced box is released before the write that replaced it returns, and with it the value,
/// unless a reader still holds its own copy.
final class GlobalCell: @unchecked Sendable {
  // Safe: `word` is read and written only atomically; the box it holds is retained by it.
  private let word: UnsafeMutablePointer<UInt>
  /// The key whose value this cell holds.
  let key: UInt

  init(key: UInt) {
    self.key = key
    word = .allocate(capacity: 1)
    word.initialize(to: 0)
  }

  /// The object at the address `word`, or `nil` for 0.
  private static func box(at word: UInt) -> Unmanaged<Node>? {
    UnsafeRawPointer(bitPattern: word).map { Unmanaged.fromOpaque($0) }
  }

  /// The global override, or `nil`, without retaining it: call only inside a read section, and
  /// use it only until the section ends.
  func loadBox() -> Unmanaged<Node>? {
    Self.box(at: injection_load_seq_cst(word))
  }

  /// Runs `body` with the global override (or `nil`), retained.
  func withBox<Result>(_ body: (Node?) -> Result) -> Result {
    let section = injection_global_read_begin()
    let box = loadBox()?.takeUnretainedValue()  // a strong reference, taken inside the section
    injection_global_read_end(section)
    return body(box)
  }

  /// Replaces the global override and returns the one replaced, once no read section can still
  /// use it, for the caller to release after dropping its locks.
  func exchange(_ box: Node?) -> Node? {
    let new = box.map { UInt(bitPattern: Unmanaged.passRetained($0).toOpaque()) } ?? 0
    let old = injection_exchange(word, new)
    guard let replaced = Self.box(at: old) else { return nil }
    injection_global_readers_drain()
    return replaced.takeRetainedValue()
  }
}
