/// The update closure (or provenance probe) running on this thread, if any.
///
/// Seed-style accessors are written `get { Self[Key.self] } set { Self[Key.self] = newValue }`:
/// they never touch the `InjectedValues` instance they are called on. For `$0.x = mock` in an
/// update closure to override only that scope, the static subscript must find the values being
/// built, and it does so here. An update closure is synchronous, so the values it builds belong
/// to one thread for as long as it runs; the context is installed before the closure and
/// removed after it, even if it throws.
///
/// A context is confined to its thread: it is reachable only through thread-local storage and
/// the frame that created it, so it needs no lock and is not `Sendable`.
@usableFromInline
final class ThreadContext {
  enum Kind {
    /// An update closure; its writes become overrides set at `site`.
    case update(site: OverrideSite)
    /// A provenance query; it records which keys a key path reads.
    case probe
  }

  let kind: Kind
  /// For an update: the values built so far. For a probe: the values being asked about.
  var values: InjectedValues
  /// For a probe: the keys read, in order.
  private(set) var keysRead: [any InjectionKey.Type] = []

  private static let slot = ThreadLocal()

  init(_ kind: Kind, values: InjectedValues) {
    self.kind = kind
    self.values = values
  }

  /// The context of the closure running on this thread.
  @usableFromInline
  static var active: ThreadContext? {
    slot.value.map { Unmanaged<ThreadContext>.fromOpaque($0).takeUnretainedValue() }
  }

  /// Runs `body` with `context` (or none) as this thread's context, then restores the previous.
  ///
  /// The caller keeps `context` alive for the duration.
  static func run<R, Failure: Error>(
    with context: ThreadContext?,
    _ body: () throws(Failure) -> R
  ) throws(Failure) -> R {
    let previous = slot.value
    let next = context.map { Unmanaged.passUnretained($0).toOpaque() }
    if previous == next { return try body() }
    slot.value = next
    defer { slot.value = previous }
    return try body()
  }

  /// Reads `Key` as seen by this context.
  @usableFromInline
  func get<Key: InjectionKey>(_ key: Key.Type) -> Key.Value {
    switch kind {
    case .update:
      return values._resolve(Key.self, reportingFallbacks: false)
    case .probe:
      keysRead.append(Key.self)
      return values._resolve(Key.self, reportingFallbacks: false)
    }
  }

  /// Writes `Key` in this context.
  @usableFromInline
  func set<Key: InjectionKey>(_ key: Key.Type, _ value: Key.Value) {
    switch kind {
    case .update(let site):
      values._store(value, for: Key.self, site: site)
    case .probe:
      preconditionFailure(
        "Injection: a key path asked about with source(of:) wrote \(Key.self); "
          + "ask about key paths whose getters only read."
      )
    }
  }
}
