import Injection

/// Keys that exist only to be overridden around the key being read: 64 distinct key types,
/// `FillerKey<D0, D0>` through `FillerKey<D7, D7>`.
struct FillerKey<High, Low>: InjectionKey {
  static var currentValue: any Service { Services.live }
}

/// 256 more keys, for chains longer than 64: `FillerKey3<D0, D0, D0>` through
/// `FillerKey3<D3, D7, D7>`.
struct FillerKey3<High, Middle, Low>: InjectionKey {
  static var currentValue: any Service { Services.live }
}

/// Type-level digits for `FillerKey` and `FillerKey3`.
protocol Digit {}
enum D0: Digit {}
enum D1: Digit {}
enum D2: Digit {}
enum D3: Digit {}
enum D4: Digit {}
enum D5: Digit {}
enum D6: Digit {}
enum D7: Digit {}

/// Overriding filler keys by number, for setting up cases. Not used on measured paths.
enum Fillers {
  /// Overrides filler key `number` (0 to 63) in `values`.
  static func override(_ number: Int, in values: inout InjectedValues) {
    precondition((0..<64).contains(number), "there are 64 filler keys")
    switch number / 8 {
    case 0: overrideRow(D0.self, number % 8, in: &values)
    case 1: overrideRow(D1.self, number % 8, in: &values)
    case 2: overrideRow(D2.self, number % 8, in: &values)
    case 3: overrideRow(D3.self, number % 8, in: &values)
    case 4: overrideRow(D4.self, number % 8, in: &values)
    case 5: overrideRow(D5.self, number % 8, in: &values)
    case 6: overrideRow(D6.self, number % 8, in: &values)
    default: overrideRow(D7.self, number % 8, in: &values)
    }
  }

  private static func overrideRow<High>(
    _ high: High.Type,
    _ low: Int,
    in values: inout InjectedValues
  ) {
    let mock = Services.mock
    switch low {
    case 0: values[FillerKey<High, D0>.self] = mock
    case 1: values[FillerKey<High, D1>.self] = mock
    case 2: values[FillerKey<High, D2>.self] = mock
    case 3: values[FillerKey<High, D3>.self] = mock
    case 4: values[FillerKey<High, D4>.self] = mock
    case 5: values[FillerKey<High, D5>.self] = mock
    case 6: values[FillerKey<High, D6>.self] = mock
    default: values[FillerKey<High, D7>.self] = mock
    }
  }

  /// The digit type of `value` (0 to 7).
  private static func digit(_ value: Int) -> any Digit.Type {
    switch value {
    case 0: D0.self
    case 1: D1.self
    case 2: D2.self
    case 3: D3.self
    case 4: D4.self
    case 5: D5.self
    case 6: D6.self
    default: D7.self
    }
  }

  /// Overrides key `number` (0 to 255) of the 256 `FillerKey3` keys in `values`.
  static func overrideAmong256(_ number: Int, in values: inout InjectedValues) {
    precondition((0..<256).contains(number), "there are 256 three-digit filler keys")
    let high = digit(number / 64)
    let middle = digit(number / 8 % 8)
    let low = digit(number % 8)
    override(high, middle, low, in: &values)
  }

  private static func override<High: Digit, Middle: Digit, Low: Digit>(
    _ high: High.Type,
    _ middle: Middle.Type,
    _ low: Low.Type,
    in values: inout InjectedValues
  ) {
    values[FillerKey3<High, Middle, Low>.self] = Services.mock
  }

  /// Runs `body` inside nested scopes that override the `FillerKey3` keys numbered `keys`,
  /// `perScope` keys per scope (the last scope may have fewer); with no keys, in no scope.
  static func withScopes(overriding keys: Range<Int>, perScope: Int, _ body: () -> Void) {
    guard !keys.isEmpty else { return body() }
    let end = min(keys.lowerBound + perScope, keys.upperBound)
    withInjectedValues {
      for number in keys.lowerBound..<end { overrideAmong256(number, in: &$0) }
    } operation: {
      withScopes(overriding: end..<keys.upperBound, perScope: perScope, body)
    }
  }

  /// Runs `body` inside `count` nested scopes, each overriding one more filler key.
  static func withNestedScopes(_ count: Int, _ body: () -> Void) {
    guard count > 0 else { return body() }
    withInjectedValues {
      override(count - 1, in: &$0)
    } operation: {
      withNestedScopes(count - 1, body)
    }
  }
}
