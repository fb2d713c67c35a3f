/// One link of the chain of overrides that an ``InjectedValues`` value, and a task, sees.
///
/// ## Layout
///
/// A value's overrides are nodes linked innermost first, each pointing to the overrides of the
/// scope around it, so entering a scope with one override allocates one node and copies nothing.
/// The kinds of node:
///
/// - a `Box<Key>` holds one override; a `LazyBox` (State layer) holds a value built on first use;
/// - an `IndexNode` holds many boxes in a hash table, so that a lookup does not walk them one by
///   one, and links to the rest of the chain (or ends it);
/// - an `ObserverNode` switches on strict mode for everything above it;
/// - an `UpdateBuilder` (State layer) stands for the values an update closure is building;
/// - a `ProbeNode` learns which keys an accessor's getter reads (see `KeyProbing.swift`).
///
/// `kind` says which; only boxes have a `key`. Kinds other than boxes and indexes answer lookups
/// through `findSpecial(_:)`.
///
/// A lookup that misses visits every node down to the end, so `hops` (how many that is) is kept
/// small: see `Node.maximumParentHops` and `Node.maximumBoundHops` for when a chain is compacted.
///
/// Every stored property is immutable but one cache, so chains are shared freely between scopes,
/// snapshots, tasks and threads.
@usableFromInline
class Node: @unchecked Sendable {
  // Safe: every stored property is a `let` of a `Sendable` type, except `compactedCache`, which
  // is read and written only while holding the lock `cacheLock` picks for this node, declared
  // beside it. Subclasses add only `let` properties of `Sendable` types.

  /// What this node is: see `Kind`.
  @usableFromInline let kind: Kind
  /// For a box, the key it overrides (`InjectedValues._key(Key.self)`); 0, which no key is, for
  /// the other kinds.
  @usableFromInline let key: UInt
  @usableFromInline let next: Node?
  /// `next`, unretained: what a lookup walks, so that it retains nothing (`next` keeps the node
  /// alive).
  @usableFromInline let nextUnretained: Unmanaged<Node>?
  /// How many nodes a lookup that misses visits from here to the end of the chain.
  @usableFromInline let hops: Int32
  /// Which value wrote this node (see `OverrideSite.layer`): a write replaces a node of its own
  /// layer instead of hiding it. `OverrideSite.noLayer` for nodes no value writes.
  @usableFromInline let layer: UInt32
  /// Whether a read that finds no override must report it (`reportFallback`): an
  /// `ObserverNode` (strict mode) is in effect here, or the chain is a `ProbeNode`.
  @usableFromInline let isObserved: Bool
  /// How many scopes deep the innermost override here was set; orders descriptions.
  @usableFromInline let depth: Int

  /// A compact replacement for this chain, made on first request: see `compacted()`.
  private var compactedCache: Node?
  /// The lock that guards `compactedCache`, shared by few nodes so that scopes entered under
  /// different chains seldom wait for each other.
  private var cacheLock: Lock { Lock.striped(for: self) }

  /// The kinds of node, in the order a lookup tests them: boxes (`Box`, and `LazyBox` for a
  /// value built on first use), then the index (`IndexNode`), then the kinds it leaves to
  /// `findSpecial` (`ObserverNode`, `UpdateBuilder`, `ProbeNode`).
  @usableFromInline
  enum Kind: UInt8 { case box, lazyBox, index, observer, builder, probe }

  /// A box's node (`kind` is `.box` or `.lazyBox`): `key`, written by the value of `layer`,
  /// `depth` scopes deep.
  @inlinable @inline(__always)
  init(key: UInt, kind: Kind, next: Node?, layer: UInt32, depth: Int) {
    self.kind = kind
    self.key = key
    self.next = next
    self.nextUnretained = next.map { Unmanaged.passUnretained($0) }
    if let next {
      hops = next.hops &+ 1
      isObserved = next.isObserved
    } else {
      hops = 1
      isObserved = false
    }
    self.layer = layer
    self.depth = depth
  }

  /// A node of a kind other than a box, linked to `next`.
  init(
    kind: Kind,
    next: Node?,
    layer: UInt32 = OverrideSite.noLayer,
    isObserved: Bool? = nil,
    depth: Int? = nil
  ) {
    self.kind = kind
    self.key = 0
    self.next = next
    self.nextUnretained = next.map { Unmanaged.passUnretained($0) }
    self.hops = 1 + (next?.hops ?? 0)
    self.layer = layer
    self.isObserved = isObserved ?? next?.isObserved ?? false
    self.depth = depth ?? next?.depth ?? 0
  }

  /// Finds the node that overrides `key` in the chain that starts at `head`.
  ///
  /// The result is unretained: it is kept alive by the chain, which the caller holds. The walk
  /// retains nothing either, for the same reason.
  @inlinable
  static func find(_ key: UInt, from head: Node?) -> Unmanaged<Node>? {
    guard let head else { return nil }
    var node = Unmanaged.passUnretained(head)
    while true {
      // The kind as its raw value, so that the comparisons stay plain integer ones.
      let (nodeKey, kind, next) = node._withUnsafeGuaranteedRef {
        ($0.key, $0.kind.rawValue, $0.nextUnretained)
      }
      if nodeKey == key { return node }  // only boxes have keys
      if kind == Kind.index.rawValue {
        // The most common node that is not a box, probed here rather than through a call.
        let box = node._withUnsafeGuaranteedRef {
          unsafeDowncast($0, to: IndexNode.self).box(for: key)  // the only node of its kind
        }
        if let box { return box }
      } else if kind > Kind.index.rawValue {
        return node._withUnsafeGuaranteedRef { $0.findSpecial(key) }
      }
      guard let next else { return nil }
      node = next
    }
  }

  /// For nodes that are not boxes: the box of `key` here or below, unretained.
  @usableFromInline
  func findSpecial(_ key: UInt) -> Unmanaged<Node>? {
    Node.find(key, from: next)
  }

  /// The same node, linked to `next` instead: how a chain is rebuilt without sharing nodes. A
  /// box takes `site` as where it was written, if one is given.
  func relinked(to next: Node?, site: OverrideSite? = nil) -> Node {
    preconditionFailure("Injection: \(type(of: self)) cannot be relinked")
  }

  /// Adds the overrides this node holds, for keys not in `table` yet (inner ones win).
  func collect(into table: inout KeyTable) {}

  /// A chain that resolves every key as this one does, with at most two nodes: this node
  /// relinked to one index of everything below it. Made once per node and kept, so that every
  /// scope entered under a long chain shares the work.
  ///
  /// The cache cannot form a cycle: the index it holds refers only to the nodes below this one.
  @usableFromInline
  func compacted() -> Node {
    if let cached = cacheLock.withLock({ compactedCache }) { return cached }
    let made = relinked(to: next.map { IndexNode(indexing: $0) })
    return cacheLock.withLock {
      if let cached = compactedCache { return cached }
      compactedCache = made
      return made
    }
  }

  /// The observer of the innermost `ObserverNode` in effect here, if any.
  var observer: (any InjectionFallbackObserver)? {
    var node: Node? = self
    while let current = node, current.isObserved {
      if let observer = current.ownObserver { return observer }
      node = current.next
    }
    return nil
  }

  /// The observer this node itself carries.
  var ownObserver: (any InjectionFallbackObserver)? { nil }

  /// For a box: the key it overrides.
  var overrideKey: (any InjectionKey.Type)? { nil }

  /// For a box: its value as descriptions show it, and where it was set.
  var overrideDescription: (value: String, site: OverrideSite)? { nil }
}

extension InjectedValues {
  /// The table key of `Key`: the address of its metadata.
  @inlinable @inline(__always)
  static func _key<Key: InjectionKey>(_ key: Key.Type) -> UInt {
    UInt(bitPattern: ObjectIdentifier(Key.self))
  }
}
