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

private struct TokenStoreKey: InjectionKey {
  static let currentValue = TokenStore()
}

extension InjectedValues {
  var tokenStore: TokenStore {
    get { self[TokenStoreKey.self] }
    set { self[TokenStoreKey.self] = newValue }
  }
}
