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

/// The type-erased face of an override, used by descriptions and provenance, never by reads.
@usableFromInline
protocol OverrideBox: AnyObject, Sendable {
  var key: any InjectionKey.Type { get }
  var site: OverrideSite { get }
  /// How many scopes deep the override was set; inner scopes have larger depths.
  var depth: Int { get }
  var valueDescription: String { get }
}

/// One overriding value of `Key`, stored with where it was set.
///
/// A read knows `Key` statically: it reaches the value with an `unsafeDowncast` from the
/// stored reference, not with a dynamic cast. The downcast cannot fail because a box is only
/// ever stored under its own key.
@usableFromInline
final class Box<Key: InjectionKey>: OverrideBox {
  @usableFromInline let value: Key.Value
  @usableFromInline let site: OverrideSite
  @usableFromInline let depth: Int

  @usableFromInline
  init(_ value: Key.Value, site: OverrideSite, depth: Int) {
    self.value = value
    self.site = site
    self.depth = depth
  }

  @usableFromInline var key: any InjectionKey.Type { Key.self }
  @usableFromInline var valueDescription: String { String(describing: value) }
}

extension InjectedValues {
  /// Returns the value of the box stored for `Key`.
  @inlinable @inline(__always)
  static func _unbox<Key: InjectionKey>(_ box: any OverrideBox, as key: Key.Type) -> Key.Value {
    unsafeDowncast(box as AnyObject, to: Box<Key>.self).value
  }
}
