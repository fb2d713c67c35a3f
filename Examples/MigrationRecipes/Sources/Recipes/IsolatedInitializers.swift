// `@MainActor @Observable` classes, and classes whose only state is a `lazy var`, as a key's
// default. Swift writes them a main-actor initializer, which a key's `static let` cannot call:
// "main actor-isolated default value in a nonisolated context". A `nonisolated init()` fixes
// both; it may only set stored properties, as these do, to values any thread can create.
import Injection
import Observation

@MainActor
@Observable
final class SessionStore {
  var userName: String?

  // Before: no initializer.
  nonisolated init() {}

  func logIn(as name: String) { userName = name }
}

@MainActor
final class ThumbnailCache {
  private lazy var thumbnails: [String: [UInt8]] = [:]

  // Before: no initializer.
  nonisolated init() {}

  func store(_ bytes: [UInt8], for name: String) { thumbnails[name] = bytes }
  func thumbnail(for name: String) -> [UInt8]? { thumbnails[name] }
}

private struct SessionStoreKey: InjectionKey {
  static let currentValue = SessionStore()
}

private struct ThumbnailCacheKey: InjectionKey {
  static let currentValue = ThumbnailCache()
}

extension InjectedValues {
  var sessionStore: SessionStore {
    get { self[SessionStoreKey.self] }
    set { self[SessionStoreKey.self] = newValue }
  }

  var thumbnailCache: ThumbnailCache {
    get { self[ThumbnailCacheKey.self] }
    set { self[ThumbnailCacheKey.self] = newValue }
  }
}
