/// The update closure (or provenance probe) running on this thread, if any.
///
/// Seed-style accessors are written `get { Self[Key.self] } set { Self[Key.self] = newValue }`:
/// they never touch the `InjectedValues` instance they are called on. For `$0.x = mock` in an
/// update closure to override only that scope, the static subscript must find the values being
/// built, and it finds them here. An update closure is synchronous, so the values it builds
/// belong to one thread for as long as it runs.
///
/// The context lives on the stack of the function running the closure, and this thread's
/// slot points to it for exactly that long, even if the closure throws. Nothing else can reach
/// it, so it needs no lock, no allocation, and it is not `Sendable`.
@usableFromInline
struct UpdateContext {
  /// For an update: the values built so far. For a probe: the values being asked about.
  @usableFromInline var values: InjectedValues
  /// Where overrides written in this update were set.
  @usableFromInline let site: OverrideSite
  /// `nil` for an update. For a provenance probe, the keys read so far, in order.
  @usableFromInline var keysRead: [any InjectionKey.Type]?

  @usableFromInline
  static let slot = ThreadLocal()

  @usableFromInline
  init(values: InjectedValues, site: OverrideSite, isProbe: Bool) {
    self.values = values
    self.site = site
    self.keysRead = isProbe ? [] : nil
  }

  /// The context of the closure running on this thread.
  @inlinable
  static var active: UnsafeMutablePointer<UpdateContext>? {
    slot.value?.assumingMemoryBound(to: UpdateContext.self)
  }

  /// Runs `body` with `context` (or none) as this thread's context, then restores the previous.
  @usableFromInline
  static func run<R, Failure: Error>(
    with context: UnsafeMutablePointer<UpdateContext>?,
    _ body: () throws(Failure) -> R
  ) throws(Failure) -> R {
    let previous = slot.value
    let next = context.map { UnsafeMutableRawPointer($0) }
    if previous == next { return try body() }
    slot.value = next
    defer { slot.value = previous }
    return try body()
  }

  /// Reads `Key` as the values being built (or probed) see it. Fallbacks are not reported to
  /// strict mode: reading a default to compute an override is not using a live dependency.
  @inlinable
  mutating func get<Key: InjectionKey>(_ key: Key.Type) -> Key.Value {
    if keysRead != nil { keysRead!.append(Key.self) }
    if let value = values._override(of: Key.self) { return value }
    return InjectedValues._fallback(Key.self)
  }

  /// Overrides `Key` in the values being built.
  @inlinable
  mutating func set<Key: InjectionKey>(_ value: Key.Value, for key: Key.Type) {
    if keysRead != nil { Self._probeWrote(Key.self) }
    values._store(value, for: Key.self, site: site)
  }

  @usableFromInline
  static func _probeWrote(_ key: any InjectionKey.Type) -> Never {
    preconditionFailure(
      "Injection: a key path asked about with source(of:) wrote \(key); "
        + "ask only about key paths whose getters read."
    )
  }
}
