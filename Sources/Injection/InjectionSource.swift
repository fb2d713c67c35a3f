/// Where the value of a dependency comes from: a scope, the global fallback, or the default.
///
/// Ask for it with ``InjectedValues/source(of:)-(KeyPath<InjectedValues,Value>)``
/// when a test does not see the mock it expects:
///
/// ```swift
/// print(InjectedValues.current.source(of: \.greeting))
/// // scope at MyAppTests/GreeterTests.swift:12
/// ```
public enum InjectionSource: Sendable, Hashable, CustomStringConvertible {
  /// An override set in the update closure of the scope (or test trait) at this location.
  case scope(fileID: String, line: Int)
  /// An override set on an ``InjectedValues`` value outside any update closure.
  case snapshot
  /// The global fallback, set with `InjectedValues[\.x] = v` or a wrapper's setter.
  case global
  /// The key's `currentValue`.
  case defaultValue

  /// A short phrase, such as `scope at MyTests/APITests.swift:12` or `default value`.
  public var description: String {
    switch self {
    case .scope(let fileID, let line): "scope at \(fileID):\(line)"
    case .snapshot: "snapshot (set outside an update closure)"
    case .global: "global value"
    case .defaultValue: "default value"
    }
  }
}
