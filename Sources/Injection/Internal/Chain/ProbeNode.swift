/// The chain of the values an accessor's getter runs on when the library asks which keys it
/// reads (see `KeyProbing.swift`).
///
/// It is the whole chain and is marked observed, so every read of these values finds no override
/// and takes the path that reports a fallback (`reportFallback`), which tells the probe running
/// on the thread. Reads of other values never meet it and pay nothing for it. It holds nothing,
/// so one node serves every probe.
@usableFromInline
final class ProbeNode: Node, @unchecked Sendable {
  // Safe: as `Node`; adds nothing.

  /// The chain of every probe's values.
  @usableFromInline static let shared = ProbeNode()

  private init() {
    super.init(kind: .probe, next: nil, isObserved: true, depth: 0)
  }
}
