/// Where an override was set.
@usableFromInline
enum OverrideSite: Sendable {
  /// In the update closure of the `withInjectedValues` call (or test trait) at this location.
  case scope(fileID: StaticString, line: UInt)
  /// On an `InjectedValues` value outside any update closure, such as a copy of `current`.
  case snapshot
  /// As the global fallback.
  case global
}

/// A node in the chain of overrides that an ``InjectedValues`` value holds.
///
/// ## Layout
///
/// A scope's overrides are boxes linked to the overrides of the scope around it, innermost
/// first, so entering a scope with one override allocates exactly one object and copies
/// nothing. A lookup walks the chain from the innermost box. To keep that walk short however
/// many overrides and scopes there are, a scope whose chain has more than
/// ``OverrideIndex/maximumUnindexedDepth`` boxes above the nearest index gets a new index: a
/// hash table of every visible override, which ends the walk. A read therefore visits at most
/// a few boxes and one index, with 1 or 64 overrides, in 1 or 10 nested scopes.
///
/// Every node is immutable, so chains are shared freely between scopes, snapshots and tasks.
@usableFromInline
protocol OverrideNode: AnyObject, Sendable {
  /// Returns the box that overrides `key` in this node or below it, as a plain reference
  /// (a `Box<Key>`), or `nil`.
  func find(_ key: UInt) -> AnyObject?
  /// How many boxes there are from this node down to the nearest index or the chain's end.
  var unindexedDepth: Int { get }
  /// Adds the overrides visible from this node whose keys are not in `boxes` yet.
  func collectVisible(into boxes: inout KeyTable<any AnyObject & Sendable>)
  /// How many overrides `collectVisible` may add, at most.
  var visibleCountBound: Int { get }
}

/// The type-erased face of one override, used by descriptions and provenance, never by reads.
@usableFromInline
protocol OverrideBox: OverrideNode {
  var key: any InjectionKey.Type { get }
  var site: OverrideSite { get }
  /// How many scopes deep the override was set; inner scopes have larger depths.
  var depth: Int { get }
  var valueDescription: String { get }
}

/// One overriding value of `Key`, linked to the overrides below it.
///
/// A read knows `Key` statically: it reaches the value with an `unsafeDowncast` from the
/// reference `find` returns, not with a dynamic cast. The downcast cannot fail because a box
/// is found only under its own key.
@usableFromInline
final class Box<Key: InjectionKey>: OverrideBox {
  @usableFromInline let value: Key.Value
  @usableFromInline let next: (any OverrideNode)?
  @usableFromInline let unindexedDepth: Int
  @usableFromInline let site: OverrideSite
  @usableFromInline let depth: Int

  @inlinable
  init(_ value: Key.Value, next: (any OverrideNode)?, site: OverrideSite, depth: Int) {
    self.value = value
    self.next = next
    self.unindexedDepth = (next?.unindexedDepth ?? 0) + 1
    self.site = site
    self.depth = depth
  }

  @usableFromInline
  func find(_ key: UInt) -> AnyObject? {
    if key == KeyTable<any OverrideBox>.key(Key.self) { return self }
    return next?.find(key)
  }

  @usableFromInline
  func collectVisible(into boxes: inout KeyTable<any AnyObject & Sendable>) {
    boxes.insertIfAbsent(self, for: KeyTable<any OverrideBox>.key(Key.self))
    next?.collectVisible(into: &boxes)
  }

  @usableFromInline var visibleCountBound: Int { 1 + (next?.visibleCountBound ?? 0) }

  @usableFromInline var key: any InjectionKey.Type { Key.self }
  @usableFromInline var valueDescription: String { String(describing: value) }
}

/// A hash table of every override visible at one point of a chain. It ends a lookup's walk.
@usableFromInline
final class OverrideIndex: OverrideNode {
  /// How many boxes a scope may stack above the nearest index before it gets a new one.
  static let maximumUnindexedDepth = 4

  /// The visible boxes, each a `Box<Key>` under its key.
  private let table: KeyTable<any AnyObject & Sendable>

  /// Indexes the overrides visible from `head`. Boxes they shadow are no longer referenced.
  init(indexing head: any OverrideNode) {
    var table = KeyTable<any AnyObject & Sendable>(capacity: head.visibleCountBound)
    head.collectVisible(into: &table)
    self.table = table
  }

  @usableFromInline var visibleCountBound: Int { table.count }

  @usableFromInline var unindexedDepth: Int { 0 }

  @usableFromInline
  func find(_ key: UInt) -> AnyObject? {
    table.find(key)
  }

  @usableFromInline
  func collectVisible(into boxes: inout KeyTable<any AnyObject & Sendable>) {
    table.forEach { key, box in boxes.insertIfAbsent(box, for: key) }
  }
}

extension InjectedValues {
  /// Returns the override of `Key` in these values, if any.
  @inlinable @inline(__always)
  func _override<Key: InjectionKey>(of key: Key.Type) -> Key.Value? {
    guard let box = overrides?.find(KeyTable<any OverrideBox>.key(Key.self)) else { return nil }
    return unsafeDowncast(box, to: Box<Key>.self).value
  }
}

extension InjectedValues {
  /// Returns the value of a box known to be stored under `Key`.
  @inlinable @inline(__always)
  static func _unbox<Key: InjectionKey>(_ box: any OverrideBox, as key: Key.Type) -> Key.Value {
    unsafeDowncast(box as AnyObject, to: Box<Key>.self).value
  }
}
