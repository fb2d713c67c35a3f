/// Switches on strict mode for the overrides above it.
final class ObserverNode: Node, @unchecked Sendable {
  // Safe: as `Node`; adds one `let` of a `Sendable` type.
  /// The observer this node switches on.
  let installed: any InjectionFallbackObserver

  init(_ observer: any InjectionFallbackObserver, next: Node?) {
    installed = observer
    super.init(kind: .observer, next: next, isObserved: true)
  }

  override var ownObserver: (any InjectionFallbackObserver)? { installed }

  override func relinked(to next: Node?, site: OverrideSite? = nil) -> Node {
    ObserverNode(installed, next: next)
  }
}

// `package`: InjectionTesting implements it; not public API.
/// Watches a strict-mode scope: reads that fall back to a global value or a default, and global
/// changes.
package protocol InjectionFallbackObserver: Sendable {
  /// Called on every read of these values that finds no override for `key`, before the fallback
  /// is produced, except reads made by update closures.
  ///
  /// - Parameters:
  ///   - key: The key that was read.
  ///   - isGlobal: `true` if the value comes from the global value, `false` for the default.
  func keyFellBack(_ key: any InjectionKey.Type, isGlobal: Bool)

  /// Called when a task running with these values sets or removes a global value.
  ///
  /// - Parameters:
  ///   - key: The key whose global value changed, or `nil` for every key (`resetAllGlobals`).
  ///   - removed: `true` if the global value was removed, `false` if it was set.
  func globalValueChanged(_ key: (any InjectionKey.Type)?, removed: Bool)
}
