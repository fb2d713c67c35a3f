/// A type that names one dependency and provides its default value.
///
/// Declare one key per dependency, then add a computed property on ``InjectedValues`` that
/// reads and writes it. Code reads the dependency through that property, with
/// ``Injected`` or `InjectedValues[\.property]`, and tests and servers override it with
/// ``withInjectedValues(_:operation:fileID:line:)``.
///
/// The default is used only when no scope overrides the key and no global value is set:
///
/// - A `static let` default is created once, the first time it is needed, and shared.
/// - A computed `static var` default is created anew on every read that falls back to it.
///
/// `Value` must be `Sendable`, because one value can be read from many tasks at once. For a
/// class that is not yet `Sendable`, see "Migrating from the seed pattern" in the docs.
///
/// ```swift
/// protocol Clock: Sendable { func now() -> Double }
/// struct SystemClock: Clock { func now() -> Double { 0 } }
///
/// private struct ClockKey: InjectionKey {
///   static let currentValue: any Clock = SystemClock()
/// }
///
/// extension InjectedValues {
///   var clock: any Clock {
///     get { self[ClockKey.self] }
///     set { self[ClockKey.self] = newValue }
///   }
/// }
/// ```
public protocol InjectionKey {
  /// The type of the dependency this key names.
  associatedtype Value: Sendable

  /// The default value of the dependency, used when nothing overrides it.
  ///
  /// Reading it may create a value, so the library never reads it while holding a lock, and it
  /// stops with a message naming the keys if defaults form a cycle (on one thread in every
  /// build, across threads in debug builds). A read that waits over 5 seconds for another
  /// thread to create the same default says so once, in debug builds, and goes on waiting.
  static var currentValue: Value { get }
}
