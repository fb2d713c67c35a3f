// A class with mutable state as a dependency. `Sendable` makes its stored properties `let`s;
// state that changes goes behind a lock (or into an actor, whose callers then await).
import Foundation  // NSLock
import Injection

// Before:
// final class TokenStore {
//   var token: String?
// }
final class TokenStore: @unchecked Sendable {
  // Safe: `storedToken` is read and written only while holding `lock`.
  private let lock = NSLock()
  private var storedToken: String?

  init(token: String? = nil) {
    storedToken = token
  }

  var token: String? {
    get { lock.withLock { storedToken } }
    set { lock.withLock { storedToken = newValue } }
  }
}

// A `lazy var` is written by its first read, so it is mutable state too: two threads that read
// it first at once both create it and race on the store. `Sendable` says so ("stored property
// '$__lazy_storage_$_formatter' of 'Sendable'-conforming class 'PriceFormatter' is mutable");
// `@unchecked Sendable` does not. It becomes an optional `var` behind the lock, created on
// first use. (A `lazy var` kept behind the lock compiles here, but not in a `nonisolated` class:
// "'nonisolated' cannot be applied to mutable stored properties".)
//
// Before: final class PriceFormatter { lazy var formatter = NumberFormatter() … }
final class PriceFormatter: @unchecked Sendable {
  // Safe: `cachedFormatter` and `count` are read and written only while holding `lock`.
  private let lock = NSLock()
  private var cachedFormatter: NumberFormatter?
  private var count = 0

  var formattedCount: Int { lock.withLock { count } }

  func format(_ amount: Double) -> String {
    lock.withLock {
      count += 1
      return formatter().string(from: NSNumber(value: amount)) ?? "\(amount)"
    }
  }

  private func formatter() -> NumberFormatter {  // the `lazy var`; called holding `lock`
    if let cachedFormatter { return cachedFormatter }
    let formatter = NumberFormatter()
    cachedFormatter = formatter
    return formatter
  }
}

private struct TokenStoreKey: InjectionKey {
  static let currentValue = TokenStore()
}

private struct PriceFormatterKey: InjectionKey {
  static let currentValue = PriceFormatter()
}

extension InjectedValues {
  var tokenStore: TokenStore {
    get { self[TokenStoreKey.self] }
    set { self[TokenStoreKey.self] = newValue }
  }

  var priceFormatter: PriceFormatter {
    get { self[PriceFormatterKey.self] }
    set { self[PriceFormatterKey.self] = newValue }
  }
}
