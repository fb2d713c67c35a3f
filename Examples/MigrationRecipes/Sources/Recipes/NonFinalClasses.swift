// Classes that are not `final`: "non-final class 'MockedNetworkProvider' cannot conform to the
// 'Sendable' protocol". Such a class fits a `Sendable` protocol as a main-actor class, or with
// `@unchecked Sendable`, which leaves its state and its subclasses' state to you.
import Foundation  // NSLock
import Injection

// Route 1: a dependency of the UI takes a `@MainActor` protocol. A main-actor class is
// `Sendable` whether it is final or not, and its subclasses are main-actor classes too.
@MainActor
protocol BannerPresenter: Sendable {
  func present(_ message: String)
}

@MainActor
class MockBannerPresenter: BannerPresenter {
  private(set) var presented: [String] = []

  nonisolated init() {}

  func present(_ message: String) { presented.append(message) }
}

/// A subclass elsewhere in the tests, as apps have.
@MainActor
final class SilentBannerPresenter: MockBannerPresenter {
  override func present(_ message: String) {}
}

// Route 2: a dependency used off the main actor keeps its `Sendable` protocol, and the base
// mock guards its state with a lock and says `@unchecked Sendable`. Subclasses inherit the
// conformance, and with it the duty: state they add must be guarded by the lock too.
protocol APIRepo: Sendable {
  func items() -> [String]
}

// Before: class MockedNetworkProvider: APIRepo {
class MockedNetworkProvider: APIRepo, @unchecked Sendable {
  // Safe: `stubbedItems` is read and written only while holding `lock`.
  private let lock = NSLock()
  private var stubbedItems: [String]

  init(items: [String] = []) {
    stubbedItems = items
  }

  func stub(_ items: [String]) {
    lock.withLock { stubbedItems = items }
  }

  func items() -> [String] {
    lock.withLock { stubbedItems }
  }
}

/// A subclass that adds no state, so it needs no lock of its own.
final class EmptyNetworkProvider: MockedNetworkProvider, @unchecked Sendable {
  override func items() -> [String] { [] }
}

struct APIRepoKey: InjectionKey {
  static let currentValue: any APIRepo = MockedNetworkProvider()
}

struct BannerPresenterKey: InjectionKey {
  static let currentValue: any BannerPresenter = MockBannerPresenter()
}

extension InjectedValues {
  var apiRepo: any APIRepo {
    get { self[APIRepoKey.self] }
    set { self[APIRepoKey.self] = newValue }
  }

  var bannerPresenter: any BannerPresenter {
    get { self[BannerPresenterKey.self] }
    set { self[BannerPresenterKey.self] = newValue }
  }
}

// A class that is not a mock, with subclasses. `@unchecked Sendable` is honest here because the
// class is immutable after `init`: every stored property, its own and every subclass's, is a
// `let` of a `Sendable` type. A subclass that adds a `var` would compile just as silently.
protocol Uploading: Sendable {
  func destination(for name: String) -> String
}

// Before: class Uploader: Uploading {
class Uploader: Uploading, @unchecked Sendable {
  // Safe: immutable after `init`. Subclasses add only `let`s of `Sendable` types.
  let baseURL: String

  init(baseURL: String) {
    self.baseURL = baseURL
  }

  func destination(for name: String) -> String { "\(baseURL)/\(name)" }
}

// Before: final class MirrorUploader: Uploader {
final class MirrorUploader: Uploader, @unchecked Sendable {
  let mirrorURL = "https://mirror.example.com"

  override func destination(for name: String) -> String { "\(mirrorURL)/\(name)" }
}

struct UploaderKey: InjectionKey {
  static let currentValue: any Uploading = Uploader(baseURL: "https://example.com")
}

extension InjectedValues {
  var uploader: any Uploading {
    get { self[UploaderKey.self] }
    set { self[UploaderKey.self] = newValue }
  }
}
