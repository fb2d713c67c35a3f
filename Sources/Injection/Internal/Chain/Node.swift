/// One link of the chain of overrides that an ``InjectedValues`` value, and a task, sees.
///
/// ## Layout
///
/// A value's overrides are nodes linked innermost first, each pointing to the overrides of the
/// scope around it, so entering a scope with one override allocates one node and copies nothing.
/// The kinds of node:
///
/// - a box holds one override of one key: a `Box<Key>`, or a `LazyBox` (State layer) for a value
///   built on first use;
/// - an `IndexNode` holds many boxes in a hash table, so that a lookup does not walk them one by
///   one, and links to the rest of the chain (or ends it);
/// - an `ObserverNode` switches on strict mode for everything above it;
/// - a `ProbeNode` ends the chain of the values on which the library runs an accessor's getter to
///   learn which keys it reads.
///
/// `kind` says which; only boxes have a `key`. A lookup that misses visits every node down to the
/// end, so `hops` (how many that is) is kept small: see `InjectedValues.maximumParentHops` and
/// `maximumBoundHops` for when a chain is compacted.
///
/// Nodes never change once made (one cache aside, under a lock), so chains are shared freely
/// between scopes, snapshots, tasks and threads.
@usableFromInline
class Node: @unchecked Sendable {
  // Safe: every stored property is a `let` of a `Sendable` type, except `compactedCache`, which
  // is read and written only under `cacheLock`. Subclasses add only `let` properties of
  // `Sendable` types.

  @usableFromInline let kind: Kind
  /// For a box, the key it overrides (`InjectedValues._key(Key.self)`); 0, which no key is, for
  /// the other kinds.
  @usableFromInline let key: UInt
  @usableFromInline let next: Node?
  /// `next`, unretained: what a lookup walks. `next` keeps the node alive.
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

  /// An index of this whole chain, made on first request: see `InjectedValues.compacted(_:)`.
  var compactedCache: Node?
  /// The lock that guards `compactedCache`, shared by few nodes.
  var cacheLock: Lock { Lock.striped(for: self) }

  /// The kinds of node. A lookup compares the key of every node, and probes an index's table.
  @usableFromInline
  enum Kind: UInt8 { case box, index, observer, probe }

  /// A node of `kind`: for a box, `key`, written by the value of `layer`, `depth` scopes deep.
  @inlinable
  init(
    key: UInt = 0,
    kind: Kind,
    next: Node?,
    layer: UInt32 = OverrideSite.noLayer,
    isObserved: Bool? = nil,
    depth: Int? = nil
  ) {
    self.kind = kind
    self.key = key
    self.next = next
    self.nextUnretained = next.map { Unmanaged.passUnretained($0) }
    self.hops = 1 &+ (next?.hops ?? 0)
    self.layer = layer
    self.isObserved = isObserved ?? next?.isObserved ?? false
    self.depth = depth ?? next?.depth ?? 0
  }

  /// Finds the box that overrides `key` in the chain that starts at `head`.
  ///
  /// The result is unretained: it is kept alive by the chain, which the caller holds. The walk
  /// retains nothing either, for the same reason.
  @inlinable
  static func find(_ key: UInt, from head: Node?) -> Unmanaged<Node>? {
    guard let head else { return nil }
    var node = Unmanaged.passUnretained(head)
    while true {
      let (nodeKey, kind, next) = node._withUnsafeGuaranteedRef {
        ($0.key, $0.kind, $0.nextUnretained)
      }
      if nodeKey == key { return node }  // only boxes have keys
      if kind == .index {
        let box = node._withUnsafeGuaranteedRef {
          unsafeDowncast($0, to: IndexNode.self).box(for: key)  // the only node of its kind
        }
        if let box { return box }
      }
      guard let next else { return nil }
      node = next
    }
  }

  /// The same node, linked to `next` instead: how a chain is rebuilt without sharing nodes. A
  /// box takes `site` as where it was written, if one is given. Observers, indexes and boxes
  /// override it; a probe is never relinked.
  func relinked(to next: Node?, site: OverrideSite? = nil) -> Node {
    preconditionFailure("Injection: a \(kind) node is never relinked")
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
  @inlinable
  static func _key<Key: InjectionKey>(_ key: Key.Type) -> UInt {
    UInt(bitPattern: ObjectIdentifier(Key.self))
  }
}
