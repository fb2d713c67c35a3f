// `public import`: the key below is public, as a library's keys are.
public import Injection
import Testing

/// A class from before Swift concurrency: mutable, no locks, not `Sendable`.
public final class LegacyImageCache {
  /// The cached images, by name.
  public var images: [String: [UInt8]] = [:]
  /// An empty cache.
  public init() {}
}

/// A public key, as a library module declares one, over the wrapped class.
public struct LegacyImageCacheKey: InjectionKey {
  /// The live cache, wrapped.
  public static let currentValue = UncheckedSendable(LegacyImageCache())
}

extension InjectedValues {
  /// The image cache, unwrapped.
  public var legacyImageCache: LegacyImageCache {
    get { self[LegacyImageCacheKey.self].value }
    set { self[LegacyImageCacheKey.self] = UncheckedSendable(newValue) }
  }
}

/// Reads the cache through the wrapper, as app code does.
@MainActor
private final class Gallery {
  @Injected(\.legacyImageCache) var cache

  func store(_ name: String) { cache.images[name] = [1, 2, 3] }
}

// Every use of the wrapped class happens on the main actor, which is what makes it safe.
@Suite("UncheckedSendable")
@MainActor
struct UncheckedSendableTests {
  @Test("A value that is not Sendable is injected, overridden in a scope, and read back")
  func wrapsANonSendableDependency() {
    let live = InjectedValues[\.legacyImageCache]
    #expect(live === InjectedValues[\.legacyImageCache], "a static let default is created once")
    let mock = LegacyImageCache()
    withInjectedValues {
      $0.legacyImageCache = mock
    } operation: {
      #expect(InjectedValues[\.legacyImageCache] === mock)
      Gallery().store("in the scope")
    }
    #expect(mock.images["in the scope"] == [1, 2, 3])
    #expect(live.images["in the scope"] == nil)
    #expect(InjectedValues.current.source(of: LegacyImageCacheKey.self) == .defaultValue)
  }

  @Test("The wrapper is a plain value: reading and writing it changes only that copy")
  func wrapperIsAValue() {
    let cache = LegacyImageCache()
    var wrapped = UncheckedSendable(cache)
    let copy = wrapped
    wrapped.value = LegacyImageCache()
    #expect(copy.value === cache)
    #expect(wrapped.value !== cache)
  }
}
