// Classes whose state is shared across threads, in a module isolated to the main actor by
// default. Without `nonisolated`, such a class is a main-actor class: its lock would guard
// nothing the main actor does not, and code off the main actor would have to await it.
import Foundation  // NSCache, NSData, NSLock
import Injection

nonisolated final class PriceFormatter: @unchecked Sendable {
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

nonisolated protocol Uploading: Sendable {
  func destination(for name: String) -> String
}

nonisolated class Uploader: Uploading, @unchecked Sendable {
  // Safe: immutable after `init`. Subclasses add only `let`s of `Sendable` types.
  let baseURL: String

  init(baseURL: String) {
    self.baseURL = baseURL
  }

  func destination(for name: String) -> String { "\(baseURL)/\(name)" }
}

nonisolated final class MirrorUploader: Uploader, @unchecked Sendable {
  let mirrorURL = "https://mirror.example.com"

  override func destination(for name: String) -> String { "\(mirrorURL)/\(name)" }
}

// A cache that locks itself, and a collection behind the class's lock, as without default
// isolation (`Recipes/LockedMembers.swift`); `nonisolated`, so that any thread may use them.
nonisolated final class ImageDataCache: @unchecked Sendable {
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

nonisolated final class ObserverRegistry: @unchecked Sendable {
  // Safe: `observers` is read and written only while holding `lock`.
  private let lock = NSLock()
  private var observers: Set<String> = []

  func add(_ id: String) { lock.withLock { _ = observers.insert(id) } }
  func remove(_ id: String) { lock.withLock { _ = observers.remove(id) } }
  var count: Int { lock.withLock { observers.count } }
}

nonisolated private struct ImageDataCacheKey: InjectionKey {
  static let currentValue = ImageDataCache()
}

nonisolated private struct ObserverRegistryKey: InjectionKey {
  static let currentValue = ObserverRegistry()
}

nonisolated private struct PriceFormatterKey: InjectionKey {
  static let currentValue = PriceFormatter()
}

nonisolated private struct UploaderKey: InjectionKey {
  static let currentValue: any Uploading = Uploader(baseURL: "https://example.com")
}

nonisolated extension InjectedValues {
  var priceFormatter: PriceFormatter {
    get { self[PriceFormatterKey.self] }
    set { self[PriceFormatterKey.self] = newValue }
  }

  var uploader: any Uploading {
    get { self[UploaderKey.self] }
    set { self[UploaderKey.self] = newValue }
  }

  var imageDataCache: ImageDataCache {
    get { self[ImageDataCacheKey.self] }
    set { self[ImageDataCacheKey.self] = newValue }
  }

  var observerRegistry: ObserverRegistry {
    get { self[ObserverRegistryKey.self] }
    set { self[ObserverRegistryKey.self] = newValue }
  }
}

// Off the main actor, many tasks at once: each registers an observer and caches its data.
@concurrent
func registerObservers(_ count: Int) async -> Int {
  await withTaskGroup(of: Void.self) { group in
    for index in 0..<count {
      group.addTask {
        InjectedValues[\.observerRegistry].add("observer \(index)")
        InjectedValues[\.imageDataCache].store(Data([UInt8(index % 256)]), for: "\(index)")
      }
    }
  }
  return InjectedValues[\.observerRegistry].count
}

// Read off the main actor, in the caller's task: no `await` for the services' methods.
@concurrent
func priceAndDestination(of amount: Double, file: String) async -> (String, String) {
  (
    InjectedValues[\.priceFormatter].format(amount),
    InjectedValues[\.uploader].destination(for: file)
  )
}
