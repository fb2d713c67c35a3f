// The minimal surface the InjectionTesting module needs. `package` access: not public API.

extension InjectedValues {
  /// Returns these values with every fallback read reported to `observer` (strict mode).
  ///
  /// Scopes entered inside keep the observer, as do the tasks they create.
  package func _observed(by observer: any InjectionFallbackObserver) -> InjectedValues {
    var values = self
    values.role = ValuesRole(.observed(observer))
    return values
  }

  /// The strict-mode observer of these values, if any.
  package var _observer: (any InjectionFallbackObserver)? { role?.observer }

  /// The keys the getter behind `keyPath` reads, found by running it once on these values.
  package func _keysRead<Value>(
    by keyPath: KeyPath<InjectedValues, Value>
  ) -> [any InjectionKey.Type] {
    keysRead(by: keyPath)
  }

  /// Runs an update closure that may suspend, and returns the values it built.
  ///
  /// A synchronous update closure finds its values through thread-local storage, which does
  /// not follow a task across a suspension. Here the values being built live in a locked
  /// buffer instead, and the proxy `$0` is also bound as the task's values, so seed-style
  /// `Self[Key.self]` accessors reach the buffer from any thread.
  package static func _updating(
    fileID: StaticString,
    line: UInt,
    with update: (inout InjectedValues) async throws -> Void,
    isolation: isolated (any Actor)? = #isolation
  ) async throws -> InjectedValues {
    var start = _storage.get()
    start.depth += 1
    let buffer = AsyncUpdateBuffer(start, site: .scope(fileID: fileID, line: line))
    var proxy = InjectedValues()
    proxy.role = ValuesRole(.asyncUpdate(buffer))
    let bound = proxy
    try await _storage.withValue(
      bound,
      operation: { try await update(&proxy) },
      isolation: isolation
    )
    var values = proxy.role === bound.role ? buffer.values : proxy
    values._indexIfNeeded()
    return values
  }
}

/// The values an asynchronous update closure builds. Guarded by `lock`.
final class AsyncUpdateBuffer: @unchecked Sendable {
  // Safe: `stored` is read and written only under `lock`. No user code runs under it: reads
  // copy the values out and resolve outside, and a write only links a new box.
  private let lock = Lock()
  private var stored: InjectedValues
  let site: OverrideSite

  init(_ values: InjectedValues, site: OverrideSite) {
    self.stored = values
    self.site = site
  }

  var values: InjectedValues { lock.withLock { stored } }

  func get<Key: InjectionKey>(_ key: Key.Type) -> Key.Value {
    let values = self.values
    if let value = values._override(of: Key.self) { return value }
    return InjectedValues._fallback(Key.self)
  }

  func set<Key: InjectionKey>(_ value: Key.Value, for key: Key.Type) {
    lock.withLock { stored._store(value, for: Key.self, site: site) }
  }
}
