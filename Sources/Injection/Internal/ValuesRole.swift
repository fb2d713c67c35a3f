/// A special behaviour attached to an ``InjectedValues`` value.
///
/// Plain values carry no role. A role is consulted only when a read finds no override (and on
/// writes), so it costs nothing on the common path.
@usableFromInline
final class ValuesRole: Sendable {
  enum Kind: Sendable {
    /// The `$0` handed to an update closure: reads and writes go to the thread's update.
    case updateProxy
    /// The value a global write goes through: writes set the global fallback.
    case globalWriter
    /// The value a provenance query reads: reads are recorded by the thread's probe.
    case probe
    /// The `$0` handed to an asynchronous update closure: reads and writes go to the buffer.
    case asyncUpdate(AsyncUpdateBuffer)
    /// A scope watched by the testing module: reads that fall back are reported.
    case observed(any InjectionFallbackObserver)
  }

  let kind: Kind
  /// Whether writes through a value with this role go somewhere other than the value itself:
  /// true for every role but strict mode's, which stores writes like a plain value.
  @usableFromInline let routesWrites: Bool

  init(_ kind: Kind) {
    self.kind = kind
    if case .observed = kind { routesWrites = false } else { routesWrites = true }
  }

  @usableFromInline static let updateProxy = ValuesRole(.updateProxy)
  static let globalWriter = ValuesRole(.globalWriter)
  static let probe = ValuesRole(.probe)

  /// The buffer of an asynchronous update, for the `$0` of one.
  var asyncUpdate: AsyncUpdateBuffer? {
    if case .asyncUpdate(let buffer) = kind { return buffer }
    return nil
  }

  var observer: (any InjectionFallbackObserver)? {
    if case .observed(let observer) = kind { return observer }
    return nil
  }
}

/// Receives the reads of an observed scope that fall back to the global value or the default.
///
/// This is the hook the `InjectionTesting` module uses for strict mode; it is not public API.
package protocol InjectionFallbackObserver: Sendable {
  /// Called on every read that finds no override for `key`, before the fallback is produced.
  ///
  /// - Parameters:
  ///   - key: The key that was read.
  ///   - isGlobal: `true` if the value comes from the global fallback, `false` for the default.
  func keyFellBack(_ key: any InjectionKey.Type, isGlobal: Bool)
}
