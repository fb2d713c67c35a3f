// Classes whose stored properties are objects: a cache that locks itself, and a collection that
// does not. `@unchecked Sendable` is honest when every use of each object is safe: the object
// locks itself, or every use of it, its methods included, holds the class's lock.
import Foundation  // NSCache, NSData, NSLock
import Injection

// An object that locks itself. NSCache is thread-safe (Apple's documentation says so, and
// swift-corelibs-foundation's locks every entry), but not `Sendable`: "stored property 'cache'
// of 'Sendable'-conforming class 'ImageDataCache' has non-Sendable type
// 'NSCache<NSString, NSData>'".
// Before: final class ImageDataCache: Sendable {
final class ImageDataCache: @unchecked Sendable {
  // Safe: `cache` locks itself, its limit is set only in `init`, and its values are immutable.
  private let cache = NSCache<NSString, NSData>()

  init(countLimit: Int = 100) {
    cache.countLimit = countLimit
  }

  func data(for name: String) -> Data? {
    cache.object(forKey: name as NSString).map { Data(referencing: $0) }
  }

  func store(_ data: Data, for name: String) {
    cache.setObject(data as NSData, forKey: name as NSString)
  }
}

// An object that does not lock itself changes through its methods, though the property is a
// `let`: "stored property 'observers' of 'Sendable'-conforming class 'ObserverRegistry' has
// non-Sendable type 'NSMutableSet'". `@unchecked Sendable` silences that, and an
// `observers.add(id)` outside the lock then races without a word. Keep the collection a value,
// a `var` behind the lock, so that each change is a write under the lock.
//
// Before:
// final class ObserverRegistry: @unchecked Sendable {
//   private let lock = NSLock()
//   private let observers = NSMutableSet()
//   func add(_ id: String) { observers.add(id) }
//   func remove(_ id: String) { observers.remove(id) }
//   var count: Int { lock.withLock { observers.count } }
// }
final class ObserverRegistry: @unchecked Sendable {
  // Safe: `observers` is read and written only while holding `lock`.
  private let lock = NSLock()
  private var observers: Set<String> = []

  func add(_ id: String) { lock.withLock { _ = observers.insert(id) } }
  func remove(_ id: String) { lock.withLock { _ = observers.remove(id) } }
  var count: Int { lock.withLock { observers.count } }
}

private struct ImageDataCacheKey: InjectionKey {
  static let currentValue = ImageDataCache()
}

private struct ObserverRegistryKey: InjectionKey {
  static let currentValue = ObserverRegistry()
}

extension InjectedValues {
  var imageDataCache: ImageDataCache {
    get { self[ImageDataCacheKey.self] }
    set { self[ImageDataCacheKey.self] = newValue }
  }

  var observerRegistry: ObserverRegistry {
    get { self[ObserverRegistryKey.self] }
    set { self[ObserverRegistryKey.self] = newValue }
  }
}
