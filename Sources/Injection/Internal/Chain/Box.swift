import CInjectionSupport

/// Where an override was set, as provenance reports it, and which value wrote it.
@usableFromInline
struct OverrideSite: Sendable {
  @usableFromInline
  enum Kind: UInt32, Sendable {
    /// In the update closure of the `withInjectedValues` call (or test trait) at `fileID:line`.
    case scope
    /// On an `InjectedValues` value outside any update closure, such as a copy of `current`.
    case snapshot
    /// As the global value.
    case global
  }

  /// The address and length of the `#fileID` of a scope: a string literal, never freed. For a
  /// snapshot, which has no file, `fileLength` holds the depth instead (see `depth`).
  @usableFromInline let fileStart: UInt
  @usableFromInline let fileLength: UInt32
  @usableFromInline let line: UInt32
  /// Which value writes with this site: the kind (low two bits) and, for a scope, its depth, or
  /// for writes to a snapshot, a number of their own (the rest). Writes of one update closure
  /// share a layer, and so do writes to one snapshot and its copies; two snapshots of one chain
  /// never do, so that neither takes the other's overrides (values built on first use
  /// included) for its own.
  @usableFromInline let layer: UInt32

  /// The layer of nodes that no value writes: indexes that end a chain, observers, markers.
  @usableFromInline static let noLayer = UInt32.max

  @inlinable
  init(_ kind: Kind, depth: Int, fileID: StaticString = "", line: UInt = 0) {
    fileStart = kind == .scope ? UInt(bitPattern: fileID.utf8Start) : 0
    fileLength = UInt32(truncatingIfNeeded: fileID.utf8CodeUnitCount)
    self.line = UInt32(truncatingIfNeeded: line)
    layer = UInt32(truncatingIfNeeded: depth) << 2 | kind.rawValue
  }

  /// The site of writes to a snapshot whose chain starts at `head`, with a layer of their own.
  @usableFromInline
  init(snapshotOver head: Node?) {
    fileStart = 0
    fileLength = UInt32(truncatingIfNeeded: head?.depth ?? 0)  // no file: the depth, see `depth`
    line = 0
    layer = injection_next_snapshot_layer() << 2 | Kind.snapshot.rawValue
  }

  @inlinable var kind: Kind { Kind(rawValue: layer & 3).unsafelyUnwrapped }
  @inlinable var depth: Int {
    Int(layer & 3 == Kind.snapshot.rawValue ? fileLength : layer >> 2)
  }

  var fileID: String {
    let start = UnsafeRawPointer(bitPattern: fileStart)
    return String(
      decoding: UnsafeRawBufferPointer(start: start, count: Int(fileLength)),
      as: UTF8.self
    )
  }
}

/// One override of `Key` by a value.
@usableFromInline
final class Box<Key: InjectionKey>: Node, @unchecked Sendable {
  // Safe: as `Node`; adds only `let` properties of `Sendable` types.
  @usableFromInline let value: Key.Value
  @usableFromInline let site: OverrideSite

  @inlinable
  init(_ value: Key.Value, next: Node?, site: OverrideSite) {
    self.value = value
    self.site = site
    super.init(
      key: InjectedValues._key(Key.self),
      kind: .box,
      next: next,
      layer: site.layer,
      depth: site.depth
    )
  }

  override func relinked(to next: Node?, site: OverrideSite? = nil) -> Node {
    Box(value, next: next, site: site ?? self.site)
  }

  override var overrideKey: (any InjectionKey.Type)? { Key.self }

  override var overrideDescription: (value: String, site: OverrideSite)? {
    (String(describing: value), site)
  }
}
