// Key values that need the same edit with default isolation as without: a `nil` default, and a
// composition of protocols.
import Injection

final class VideoClient {
  let token: String

  init(token: String) {
    self.token = token
  }
}

// A `static var` compiles here, as main-actor state. Made a `static let`, as without default
// isolation, it needs its `nil`: "'static let' declaration requires an initializer expression
// or an explicitly stated getter".
private struct VideoClientKey: InjectionKey {
  static let currentValue: VideoClient? = nil  // Before: static var currentValue: VideoClient?
}

extension InjectedValues {
  var videoClient: VideoClient? {
    get { self[VideoClientKey.self] }
    set { self[VideoClientKey.self] = newValue }
  }
}

// Main-actor protocols do not refine `Sendable` by themselves: "type 'any FeedCaching &
// FeedLoading' does not conform to the 'Sendable' protocol". One member that does is enough.
protocol FeedLoading: Sendable {  // Before: protocol FeedLoading {
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
