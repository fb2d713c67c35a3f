import Injection

/// Keys that exist only to be overridden around the key being read: 64 distinct key types,
/// `FillerKey<D0, D0>` through `FillerKey<D7, D7>`.
struct FillerKey<High, Low>: InjectionKey {
  static var currentValue: any Service { Services.live }
}

/// Type-level digits for `FillerKey`.
enum D0 {}
enum D1 {}
enum D2 {}
enum D3 {}
enum D4 {}
enum D5 {}
enum D6 {}
enum D7 {}

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
