// MARK: - Values without overrides

extension InjectedValues {
  /// Values without any override, for resetting a scope with `$0 = .empty`.
  ///
  /// Assigned in an update closure, it drops every override of the scopes around it, so that
  /// the scope's reads fall back to the global values and the defaults, and the writes after it
  /// start from nothing:
  ///
  /// ```swift
  /// withInjectedValues { $0.greeting = "Hi" } operation: {
  ///   withInjectedValues {
  ///     $0 = .empty
  ///     $0.count = 1
  ///   } operation: {
  ///     InjectedValues[\.greeting]  // the global value or default, not "Hi"
  ///   }
  /// }
  /// ```
  ///
  /// It removes overrides only: global values are not touched (see
  /// ``resetAllGlobals()`` for those). In strict mode (a test's `.strictInjection`), the
  /// current observer stays in effect, so reads that fall back are still reported.
  public static var empty: InjectedValues {
    guard let observer = _visibleHead?.observer else { return InjectedValues() }
    return InjectedValues(head: ObserverNode(observer, next: nil))
  }
}
