/// Switches on strict mode for the overrides above it.
final class ObserverNode: Node, @unchecked Sendable {
  // Safe: as `Node`; adds one `let` of a `Sendable` type.
  let observerOfNode: any InjectionFallbackObserver

  init(_ observer: any InjectionFallbackObserver, next: Node?) {
    observerOfNode = observer
    super.init(kind: Node.observerKind, next: next, isObserved: true)
  }

  override var ownObserver: (any InjectionFallbackObserver)? { observerOfNode }

  override func relinked(to next: Node?) -> Node {
    ObserverNode(observerOfNode, next: next)
  }
}
