// A key whose value is a composition of protocols. The composition is `Sendable` when one of its
// members refines `Sendable`; when none does, the key fails: "type 'any FeedCaching &
// FeedLoading' does not conform to the 'Sendable' protocol".
import Injection

// Before: protocol FeedLoading {
protocol FeedLoading: Sendable {
  func load() -> [String]
}

protocol FeedCaching {
  func cached() -> [String]
}

struct LiveFeed: FeedLoading, FeedCaching {
  func load() -> [String] { ["live"] }
  func cached() -> [String] { [] }
}

private struct FeedKey: InjectionKey {
  static let currentValue: any FeedLoading & FeedCaching = LiveFeed()
}

extension InjectedValues {
  var feed: any FeedLoading & FeedCaching {
    get { self[FeedKey.self] }
    set { self[FeedKey.self] = newValue }
  }
}
