// Main-actor classes that get a main-actor initializer from Swift even when they declare none:
// `@Observable` classes, and classes with a `lazy var` or a property-wrapper stored property
// (`@Published`). A key's `static let` cannot call it: "main actor-isolated default value in a
// nonisolated context". A `nonisolated init() {}` fixes all three; it may only set stored
// properties, as these do, to values any thread can create.
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

/// A stand-in for Combine's `Published`, which Linux does not have: a property wrapper of the
/// same shape (a generic struct with a nonisolated `init(wrappedValue:)`, here the memberwise
/// one, and a class as its projected value). It makes Swift's initializer main-actor, as
/// `Published` does.
@propertyWrapper
struct Published<Value> {
  final class Publisher {}
  let projectedValue = Publisher()
  var wrappedValue: Value
}

@MainActor
final class CartStore {
  @Published private(set) var items: [String] = []

  // Before: no initializer.
  nonisolated init() {}

  func add(_ item: String) { items.append(item) }
}

private struct SessionStoreKey: InjectionKey {
  static let currentValue = SessionStore()
}

private struct ThumbnailCacheKey: InjectionKey {
  static let currentValue = ThumbnailCache()
}

private struct CartStoreKey: InjectionKey {
  static let currentValue = CartStore()
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

  var cartStore: CartStore {
    get { self[CartStoreKey.self] }
    set { self[CartStoreKey.self] = newValue }
  }
}
