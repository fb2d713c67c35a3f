import Foundation  // Data
import Injection
import InjectionTesting
import Testing

@testable import Recipes

struct MockSession: Session {
  let name: String
  func data(for path: String) async throws -> String { "\(name) \(path)" }
}

@Suite("The recipes of the migration guide, without default isolation")
struct RecipesTests {
  @Test(
    "A public struct, made Sendable, is overridden by the trait",
    .injecting { $0.activityValidator = ActivityValidator(minimumLength: 10) }
  )
  func publicStruct() {
    #expect(!InjectedValues[\.activityValidator].isValid("short"))
  }

  @Test("A main-actor singleton is the default, read on any thread")
  func mainActorSingleton() async {
    let offMain = await Task.detached { InjectedValues[\.appState] }.value
    #expect(offMain === SharedAppState.shared)
    #expect(InjectedValues[\.appState] === SharedAppState.shared)
  }

  @Test(
    "A Sendable final class reads the caller's scope on every call",
    .injecting { $0.session = MockSession(name: "suite") }
  )
  func sendableFinalClass() async throws {
    let client = APIClient()
    #expect(try await client.profile() == "suite /profile")
    let scoped = try await withInjectedValues {
      $0.session = MockSession(name: "inner")
    } operation: {
      try await client.profile()
    }
    #expect(scoped == "inner /profile")
    #expect(try await client.profile() == "suite /profile")
  }

  @Test(
    "An actor reads a main-actor service through a nonisolated key",
    .injecting { $0.appState = SharedAppState() }
  )
  func actorReadsAMainActorService() async {
    #expect(await !SyncEngine().syncIfLoggedIn())
    await InjectedValues[\.appState].logIn()
    #expect(await SyncEngine().syncIfLoggedIn())
    #expect(await !SharedAppState.shared.isLoggedIn, "the test's own state, not the singleton")
  }

  @Test(
    "@Observable and lazy-var classes with a nonisolated init are defaults and mocks",
    .injecting { $0.sessionStore = SessionStore() }
  )
  func observableClasses() async {
    let defaultCache = await Task.detached { InjectedValues[\.thumbnailCache] }.value
    #expect(defaultCache === InjectedValues[\.thumbnailCache])
    await InjectedValues[\.sessionStore].logIn(as: "Ada")
    #expect(await InjectedValues[\.sessionStore].userName == "Ada")
  }

  @Test(
    "Non-final mocks: subclasses stand in for their base class",
    .injecting {
      $0.apiRepo = EmptyNetworkProvider(items: ["ignored"])
      $0.bannerPresenter = SilentBannerPresenter()
    }
  )
  @MainActor
  func nonFinalMocks() {
    #expect(InjectedValues[\.apiRepo].items() == [])
    InjectedValues[\.bannerPresenter].present("hello")
    let presenter = InjectedValues[\.bannerPresenter] as? MockBannerPresenter
    #expect(presenter?.presented == [])
  }

  @Test(
    "A class with mutable state behind a lock is shared by the scope's tasks",
    .injecting { $0.tokenStore = TokenStore() }
  )
  func mutableState() async {
    let stubbed = MockedNetworkProvider()
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<50 {
        group.addTask {
          InjectedValues[\.tokenStore].token = "token \(index)"
          stubbed.stub(["item \(index)"])
        }
      }
    }
    #expect(InjectedValues[\.tokenStore].token?.hasPrefix("token ") == true)
    #expect(stubbed.items().count == 1)
    let unscoped = await Task.detached { InjectedValues[\.tokenStore] }.value
    #expect(InjectedValues[\.tokenStore] !== unscoped, "the test's own store")
  }

  @Test("A main-actor service with a nonisolated init is created off the main actor")
  func nonisolatedInit() async {
    let offMain = await Task.detached { InjectedValues[\.focusCoordinator] }.value
    #expect(offMain === InjectedValues[\.focusCoordinator])
    await offMain.focus("welcome")
    #expect(await offMain.focusedStep == "welcome")
  }

  @Test("A main-actor key creates its default on the main actor, and scopes override it")
  @MainActor
  func mainActorKey() async {
    #expect(GuideViewModel().firstStep == "welcome")
    let mock = GuideController()
    mock.reload()
    await withInjectedValues {
      $0.guideController = mock
    } operation: {
      #expect(InjectedValues[\.guideController] === mock)
      #expect(await firstGuideStep() == "welcome")
    }
  }

  @Test(
    "A key that was @MainActor static var reads on any thread once it is a plain static let",
    .injecting { $0.themeStore = ThemeStore() }
  )
  func formerMainActorKey() async {
    let scoped = InjectedValues[\.themeStore]
    let offMain = await Task { @concurrent in InjectedValues[\.themeStore] }.value
    #expect(offMain === scoped)
    await scoped.use("dark")
    #expect(await scoped.theme == "dark")
    let unscoped = await Task.detached { InjectedValues[\.themeStore] }.value
    #expect(unscoped !== scoped, "the default, outside the test's scope")
  }

  @Test(
    "A class with a property-wrapper stored property and a nonisolated init is a default",
    .injecting { $0.cartStore = CartStore() }
  )
  func wrappedProperties() async {
    let defaultStore = await Task.detached { InjectedValues[\.cartStore] }.value
    #expect(defaultStore !== InjectedValues[\.cartStore])
    await InjectedValues[\.cartStore].add("tea")
    #expect(await InjectedValues[\.cartStore].items == ["tea"])
    #expect(await defaultStore.items.isEmpty)
  }

  @Test(
    "A lazy var behind the lock is created once, by whichever task uses it first",
    .injecting { $0.priceFormatter = PriceFormatter() }
  )
  func lazyVarBehindALock() async {
    let formatted = await withTaskGroup(of: String.self) { group in
      for _ in 0..<50 {
        group.addTask { InjectedValues[\.priceFormatter].format(2.5) }
      }
      return await group.reduce(into: Set<String>()) { $0.insert($1) }
    }
    #expect(formatted.count == 1)
    #expect(InjectedValues[\.priceFormatter].formattedCount == 50)
  }

  @Test(
    "A non-final class, immutable after init, and its subclass stand in for each other",
    arguments: [
      Uploader(baseURL: "https://a.example"),
      MirrorUploader(baseURL: "https://a.example"),
    ]
  )
  func nonFinalClasses(uploader: Uploader) async {
    let expected = uploader.destination(for: "photo")
    await withInjectedValues {
      $0.uploader = uploader
    } operation: {
      let offMain = await Task { @concurrent in
        InjectedValues[\.uploader].destination(for: "photo")
      }.value
      #expect(offMain == expected)
    }
  }

  @Test(
    "Subclasses of a generic base class, or stores that hold one, take concurrent writes",
    arguments: [RoleStore(), ComposedRoleStore()] as [any RoleStoring]
  )
  func genericBaseClasses(store: any RoleStoring) async {
    await withInjectedValues {
      $0.roleStore = store
    } operation: {
      await withTaskGroup(of: Void.self) { group in
        for index in 0..<50 {
          group.addTask { InjectedValues[\.roleStore].add(Role(name: "role \(index)")) }
        }
      }
    }
    #expect(Set(store.roles().map(\.name)) == Set((0..<50).map { "role \($0)" }))
    #expect(InjectedValues[\.roleStore].roles().isEmpty, "the default, outside the scope")
  }

  @Test("A main-actor key creates a class that holds what is not Sendable, on the main actor")
  @MainActor
  func mainActorKeyForNonSendableMembers() {
    let dispatcher = EventDispatcher()
    withInjectedValues {
      $0.analytics = Analytics(dispatcher: dispatcher)
    } operation: {
      InjectedValues[\.analytics].track("opened")
    }
    #expect(dispatcher.sent == ["opened"])
    #expect(InjectedValues[\.analytics].dispatcher !== dispatcher)
  }

  @Test("A nil default: code that assigned the key sets and resets the global value")
  func optionalKey() async {
    #expect(InjectedValues[\.videoClient] == nil)
    VideoSession.logIn(token: "t1")
    let offMain = await Task.detached { InjectedValues[\.videoClient]?.token }.value
    #expect(offMain == "t1")
    await withInjectedValues {
      $0.videoClient = VideoClient(token: "mock")
    } operation: {
      #expect(InjectedValues[\.videoClient]?.token == "mock")
    }
    VideoSession.logOut()
    #expect(InjectedValues[\.videoClient] == nil)
  }

  @Test(
    "A composition with one Sendable member is a key's value, read on any thread",
    .injecting { $0.feed = MockFeed() }
  )
  func protocolComposition() async {
    #expect(InjectedValues[\.feed].load() == ["mock"])
    #expect(InjectedValues[\.feed].cached() == ["cached mock"])
    let unscoped = await Task.detached { InjectedValues[\.feed].load() }.value
    #expect(unscoped == ["live"])
  }

  @Test(
    "A cache that locks itself, and a collection behind a lock, take concurrent writes",
    .injecting {
      $0.imageDataCache = ImageDataCache()
      $0.observerRegistry = ObserverRegistry()
    }
  )
  func lockedMembers() async {
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<100 {
        group.addTask {
          let registry = InjectedValues[\.observerRegistry]
          registry.add("observer \(index)")
          if index.isMultiple(of: 2) { registry.remove("observer \(index)") }
          InjectedValues[\.imageDataCache].store(Data([UInt8(index)]), for: "\(index)")
        }
      }
    }
    #expect(InjectedValues[\.observerRegistry].count == 50)
    #expect(InjectedValues[\.imageDataCache].data(for: "42") == Data([42]))
    #expect(InjectedValues[\.imageDataCache].data(for: "missing") == nil)
  }
}

struct MockFeed: FeedLoading, FeedCaching {
  func load() -> [String] { ["mock"] }
  func cached() -> [String] { ["cached mock"] }
}
