import CInjectionSupport

/// The global values: what `InjectedValues[\.x] = v`, `@Injected`'s setter and `Self[Key.self] = v`
/// outside an update closure set, and what `resetGlobal` removes.
///
/// A read must take no lock, must see a global change at once, and reads of one key from many
/// threads must not wait for each other. So the global values are one chain of nodes, which never
/// change once published: its head's address is the atomic word `injection_global_head` (0 while
/// no key has a global value). A write edits the chain as any value edits its own overrides (at
/// most four boxes above indexes that double in size, see `ChainEditing.swift`), under the
/// writers' lock, publishes the new head, and drops the old chain once no reader can still be
/// using it; the value it replaces is released by the caller, after the lock is dropped, since
/// that may run its deinitializer.
///
/// n writes of new keys take time linear in n. A read costs one atomic load while no key is set,
/// and a read section with a lookup of a few boxes and indexes once any is.
///
/// ## Read sections
///
/// The one invariant that makes reading the chain without retaining it safe: **a writer drops a
/// replaced chain only after every read section that could have loaded it has ended.**
///
/// - A reader begins a section (`injection_global_read_begin`), loads the head's address
///   (sequentially consistent), finds the box, copies the value out of it (retaining what the
///   value refers to), and ends the section (`injection_global_read_end`). Between begin and end
///   it runs no user code, and the section never nests.
/// - The copy, and the retains it makes, must happen before the end: the end is a call the compiler
///   cannot see into, so neither the optimizer nor ARC moves them past it. Nothing may use the
///   chain or the box after the end; only the copied value leaves the section.
/// - A writer exchanges the word (sequentially consistent), then drains
///   (`injection_global_readers_drain`): it waits until every section that began before the
///   exchange has ended. Sections count themselves in striped counters, so readers on different
///   threads seldom share a cache line; `Readers.c` says why the drain cannot miss one. Only then
///   is the old chain dropped.
/// - No signal handler may read a global value, and the process must not `fork()` during a
///   section.
@usableFromInline
enum GlobalValues {
  /// The published chain, which the writers' lock guards; the word holds its head's address.
  private static let published = Locked<Node?>(nil)

  /// Begins a read section and returns the global override of `key` in it, without retaining it,
  /// with the `section` that `injection_global_read_end` must end as soon as the value is copied
  /// out (see "Read sections"); `nil`, with no section open, if `key` has no global value.
  @usableFromInline
  static func beginReading(
    _ key: UInt
  ) -> (box: Unmanaged<Node>, section: UnsafeMutableRawPointer?)? {
    let section = injection_global_read_begin()
    if let head = UnsafeRawPointer(bitPattern: injection_global_head_load()),
      let box = Unmanaged<Node>.fromOpaque(head)._withUnsafeGuaranteedRef({
        Node.find(key, from: $0)
      })
    {
      return (box, section)
    }
    injection_global_read_end(section)
    return nil
  }

  /// The global override of `key`, if one is set.
  static func box(for key: UInt) -> Node? {
    published.withLock { Node.find(key, from: $0)?.takeUnretainedValue() }
  }

  /// Publishes the chain that `change` makes of the published one, and returns what `change`
  /// returns with it. Writes take turns, drain included, and the old chain is dropped before the
  /// next write starts, under the lock: `change` must run no user code, and must return whatever
  /// it removes, so that dropping the old chain releases no value and only the caller does.
  static func publish<Removed>(_ change: (Node?) -> (head: Node?, removed: Removed)) -> Removed {
    published.withLock { head in
      let (new, removed) = change(head)
      guard new !== head else { return removed }
      let replaced = head
      head = new
      injection_global_head_exchange(new.map { UInt(bitPattern: ObjectIdentifier($0)) } ?? 0)
      if replaced != nil { injection_global_readers_drain() }
      withExtendedLifetime(replaced) {}  // dropped once no read section can use it
      return removed
    }
  }
}
