/// Detects cycles among defaults in debug builds.
///
/// A default that reads another dependency resolves it while it is being created. If the
/// chain comes back to a key already being created, the program would hang (a `static let`
/// waits on its own initialization) or overflow the stack (a computed default). Instead it stops
/// with the chain of keys.
///
/// The chain is kept per thread, as a linked list of frames on the stack: a key's
/// `currentValue` is synchronous, so one chain never leaves its thread, and resolutions on
/// other threads or tasks never see it (no false positives, no process-wide lock).
@usableFromInline
enum DefaultChain {
  private struct Frame {
    let key: any InjectionKey.Type
    let previous: UnsafeRawPointer?
  }

  private static let slot = ThreadLocal()

  @usableFromInline
  static func resolving<Value>(_ key: any InjectionKey.Type, _ make: () -> Value) -> Value {
    let previous = UnsafeRawPointer(slot.value)
    var cursor = previous
    while let frame = cursor?.assumingMemoryBound(to: Frame.self) {
      if ObjectIdentifier(frame.pointee.key) == ObjectIdentifier(key) {
        cycleDetected(closingWith: key, from: previous)
      }
      cursor = frame.pointee.previous
    }
    var frame = Frame(key: key, previous: previous)
    return withUnsafeMutablePointer(to: &frame) { pointer in
      slot.value = UnsafeMutableRawPointer(pointer)
      defer { slot.value = UnsafeMutableRawPointer(mutating: previous) }
      return make()
    }
  }

  private static func cycleDetected(
    closingWith key: any InjectionKey.Type,
    from innermost: UnsafeRawPointer?
  ) -> Never {
    var chain: [any InjectionKey.Type] = [key]
    var cursor = innermost
    while let frame = cursor?.assumingMemoryBound(to: Frame.self) {
      chain.append(frame.pointee.key)
      if ObjectIdentifier(frame.pointee.key) == ObjectIdentifier(key) { break }
      cursor = frame.pointee.previous
    }
    let names = chain.reversed().map { String(describing: $0) }
    fatalError("Injection: dependency cycle detected: \(names.joined(separator: " → "))")
  }
}
