/// A value that is `Sendable` because you say so, not because the compiler checked it: a way to
/// inject a dependency whose type is not `Sendable` yet.
///
/// A key's value must be `Sendable`, because one value can be read from many tasks at once. A
/// class written before Swift concurrency, mutable and without locks, is not. Wrapping it lets it
/// be injected now, and makes the promise visible where it is made:
///
/// ```swift
/// final class LegacyImageCache {
///   var images: [String: [UInt8]] = [:]
/// }
///
/// private struct ImageCacheKey: InjectionKey {
///   static let currentValue = UncheckedSendable(LegacyImageCache())
/// }
///
/// extension InjectedValues {
///   var imageCache: LegacyImageCache {
///     get { self[ImageCacheKey.self].value }
///     set { self[ImageCacheKey.self] = UncheckedSendable(newValue) }
///   }
/// }
/// ```
///
/// > Warning: The compiler no longer catches data races on the wrapped value. The wrapper is
/// > safe only if every use of the value happens on one thread or actor (the main actor, by
/// > convention), or if the value synchronizes itself, for example with a lock. A data race
/// > through it is undefined behaviour, which the library cannot detect. Remove the wrapper as
/// > soon as the type is `Sendable`.
public struct UncheckedSendable<Value>: @unchecked Sendable {
  // Unchecked on purpose: this is the escape hatch users opt into, with the warning above. The
  // library itself never uses it.

  /// The wrapped value.
  ///
  /// ```swift
  /// let cache = InjectedValues[\.imageCache]  // the accessor unwraps it
  /// ```
  public var value: Value

  /// Wraps `value`, promising that sharing it between tasks is safe.
  ///
  /// ```swift
  /// let wrapped = UncheckedSendable(LegacyImageCache())
  /// ```
  ///
  /// - Parameter value: The value to wrap.
  @inlinable
  public init(_ value: Value) {
    self.value = value
  }
}
