import CInjectionSupport

/// The global values: what `InjectedValues[\.x] = v`, `@Injected`'s setter and `Self[Key.self] = v`
/// outside an update closure set, and what `resetGlobal` removes.
///
/// A read must take no lock, must see a global change at once, and reads of one key from many
/// threads must not wait for each other. So the global values are one `IndexNode` of boxes, which
/// never changes once published: its address is the atomic word `injection_global_index` (0 while
/// no key has a global value). A write builds a new index under the writers' lock, publishes it,
/// and releases the old one once no reader can still be using it; the value it replaces is
/// released by the caller, after the lock is dropped, since that may run its deinitializer.
///
/// A write takes time linear in the number of keys set globally. A read costs one atomic load
/// while no key is set, and a read section with one probe of the index once any is.
///
/// ## Read sections
///
/// The one invariant that makes reading the index without retaining it safe: **a writer releases
/// a replaced index only after every read section that could have loaded it has ended.**
///
/// - A reader begins a section (`injection_global_read_begin`), loads the index's address
///   (sequentially consistent), finds the box, copies the value out of it (retaining what the
///   value refers to), and ends the section (`injection_global_read_end`). Between begin and end
///   it runs no user code, and the section never nests.
/// - The copy, and the retains it makes, must happen before the end: the end is a call the compiler
///   cannot see into, so neither the optimizer nor ARC moves them past it. Nothing may use the
///   index or the box after the end; only the copied value leaves the section.
/// - A writer exchanges the word (sequentially consistent), then drains
///   (`injection_global_readers_drain`): it waits until every section that began before the
///   exchange has ended. Sections count themselves in striped counters, so readers on different
///   threads seldom share a cache line; `Readers.c` says why the drain cannot miss one. Only then
///   is the old index released.
/// - No signal handler may read a global value, and the process must not `fork()` during a
///   section.
@usableFromInline
enum GlobalValues {
  /// The published index, which the writers' lock guards; the word holds its address.
  private static let published = Locked<IndexNode?>(nil)

  /// Begins a read section and returns the global override of `key` in it, without retaining it,
  /// with the `section` that `injection_global_read_end` must end as soon as the value is copied
  /// out (see "Read sections"); `nil`, with no section open, if `key` has no global value.
  @usableFromInline
  static func beginReading(
    _ key: UInt
  ) -> (box: Unmanaged<Node>, section: UnsafeMutableRawPointer?)? {
    let section = injection_global_read_begin()
    if let index = UnsafeRawPointer(bitPattern: injection_global_index_load()),
      let box = Unmanaged<IndexNode>.fromOpaque(index)._withUnsafeGuaranteedRef({ $0.box(for: key) }
      )
    {
      return (box, section)
    }
    injection_global_read_end(section)
    return nil
  }

  /// The global override of `key`, if one is set.
  static func box(for key: UInt) -> Node? {
    published.withLock { $0?.box(for: key)?.takeUnretainedValue() }
  }

  /// Sets (or, with `nil`, removes) the global override of `key`; returns the one replaced, for
  /// the caller to release outside any lock.
  static func setBox(_ box: Node?, for key: UInt) -> [Node] {
    publish { boxes in
      let replaced = boxes.filter { $0.key == key }
      boxes.removeAll { $0.key == key }
      if let box { boxes.append(box) }
      return replaced
    }
  }

  /// Removes every global value; returns the ones removed.
  static func removeAll() -> [Node] {
    publish { boxes in
      defer { boxes = [] }
      return boxes
    }
  }

  /// Publishes an index of the boxes that `change` makes of the published ones, and returns the
  /// boxes that `change` says it removed. Writes take turns, drain included, so that when one
  /// returns, no index holds what it removed: only the caller does.
  private static func publish(_ change: (inout [Node]) -> [Node]) -> [Node] {
    published.withLock { index in
      var boxes = index?.boxes ?? []
      let removed = change(&boxes)
      let replaced = index
      index = boxes.isEmpty ? nil : IndexNode(boxes, layer: OverrideSite.noLayer, next: nil)
      injection_global_index_exchange(index.map { UInt(bitPattern: ObjectIdentifier($0)) } ?? 0)
      if replaced != nil { injection_global_readers_drain() }
      // Released once no read section can use it. That releases no value, since `index` or
      // `removed` holds each of its boxes.
      withExtendedLifetime(replaced) {}
      return removed
    }
  }
}
