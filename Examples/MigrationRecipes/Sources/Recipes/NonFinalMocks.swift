// Mocks that other mocks subclass. A class that is not `final` cannot conform to `Sendable`
// (only `@unchecked Sendable`), so a `Sendable` protocol shuts out `public class Mock…: APIRepo`.
import Foundation  // NSLock
import Injection

// Route 1: a dependency of the UI takes a `@MainActor` protocol. A main-actor class is
// `Sendable` whether it is final or not, and its subclasses are main-actor classes too.
@MainActor
public protocol BannerPresenter: Sendable {
  func present(_ message: String)
}

@MainActor
open class MockBannerPresenter: BannerPresenter {
  public private(set) var presented: [String] = []

  public nonisolated init() {}

  open func present(_ message: String) { presented.append(message) }
}

/// A subclass elsewhere in the tests, as apps have.
@MainActor
public final class SilentBannerPresenter: MockBannerPresenter {
  override public func present(_ message: String) {}
}

// Route 2: a dependency used off the main actor keeps its `Sendable` protocol, and the base
// mock guards its state with a lock and says `@unchecked Sendable`. Subclasses inherit the
// conformance, and with it the duty: state they add must be guarded by the lock too.
public protocol APIRepo: Sendable {
  func items() -> [String]
}

// Before: public class MockedNetworkProvider: APIRepo {
open class MockedNetworkProvider: APIRepo, @unchecked Sendable {
  // Safe: `stubbedItems` is read and written only while holding `lock`.
  private let lock = NSLock()
  private var stubbedItems: [String]

  public init(items: [String] = []) {
    stubbedItems = items
  }

  public func stub(_ items: [String]) {
    lock.withLock { stubbedItems = items }
  }

  open func items() -> [String] {
    lock.withLock { stubbedItems }
  }
}

/// A subclass that adds no state, so it needs no lock of its own.
public final class EmptyNetworkProvider: MockedNetworkProvider, @unchecked Sendable {
  override public func items() -> [String] { [] }
}

public struct APIRepoKey: InjectionKey {
  public static let currentValue: any APIRepo = MockedNetworkProvider()
}

public struct BannerPresenterKey: InjectionKey {
  public static let currentValue: any BannerPresenter = MockBannerPresenter()
}

extension InjectedValues {
  public var apiRepo: any APIRepo {
    get { self[APIRepoKey.self] }
    set { self[APIRepoKey.self] = newValue }
  }

  public var bannerPresenter: any BannerPresenter {
    get { self[BannerPresenterKey.self] }
    set { self[BannerPresenterKey.self] = newValue }
  }
}
