import Foundation  // Data
import Injection
import InjectionTesting
import Testing

@testable import MainActorRecipes

// Isolated to the main actor by default, as the module under test: so are these tests.
@Suite("The recipes of the migration guide, with default main-actor isolation")
struct MainActorRecipesTests {
  @Test("A main-actor singleton is the default of a main-actor key")
  func mainActorSingleton() {
    #expect(InjectedValues[\.appState] === SharedAppState.shared)
  }

  @Test(
    "Main-actor mocks, built by the trait with their main-actor initializers",
    .injecting {
      $0.appState = SharedAppState()
      $0.sessionStore = SessionStore()
    }
  )
  func mainActorMocks() {
    InjectedValues[\.appState].logIn()
    InjectedValues[\.sessionStore].logIn(as: "Ada")
    #expect(InjectedValues[\.appState].isLoggedIn)
    #expect(!SharedAppState.shared.isLoggedIn, "the test's own state, not the singleton")
    #expect(InjectedValues[\.sessionStore].userName == "Ada")
  }

  @Test(
    "An actor reads a main-actor service through a nonisolated key",
    .injecting { $0.badgeStore = BadgeStore() },
    arguments: [1, 3]
  )
  func actorReadsAMainActorService(messages: Int) async {
    let inbox = NotificationInbox()
    for index in 0..<messages { await inbox.receive("message \(index)") }
    #expect(InjectedValues[\.badgeStore].count == messages)
  }

  @Test(
    "A nonisolated type reads the dependency through a stored Injected, off the main actor",
    .injecting { $0.badgeStore = BadgeStore() }
  )
  func nonisolatedReader() async {
    let mock = InjectedValues[\.badgeStore]
    let read = await Task.detached { [values = InjectedValues.current] in
      withInjectedValues(values) { BadgeReader().store() }
    }.value
    #expect(read === mock)
  }

  @Test(
    "A @MainActor static let key, and a class with a wrapped property, as main-actor defaults",
    .injecting { $0.cartStore = CartStore() }
  )
  func mainActorDefaults() {
    InjectedValues[\.themeStore].use("dark")
    #expect(InjectedValues[\.themeStore].theme == "dark")
    InjectedValues[\.cartStore].add("tea")
    #expect(InjectedValues[\.cartStore].items == ["tea"])
  }

  @Test(
    "Nonisolated classes behind a lock, or immutable, are read off the main actor",
    .injecting {
      $0.priceFormatter = PriceFormatter()
      $0.uploader = MirrorUploader(baseURL: "https://a.example")
    }
  )
  func nonisolatedClasses() async {
    let (price, destination) = await priceAndDestination(of: 2.5, file: "photo")
    #expect(destination == "https://mirror.example.com/photo")
    #expect(price == InjectedValues[\.priceFormatter].format(2.5))
    #expect(InjectedValues[\.priceFormatter].formattedCount == 2)
  }

  @Test(
    "Subclasses of a generic base class are main-actor defaults and mocks as they are",
    .injecting { $0.roleStore = RoleStore() }
  )
  func genericBaseClasses() {
    InjectedValues[\.roleStore].add(Role(name: "admin"))
    #expect(InjectedValues[\.roleStore].roles() == [Role(name: "admin")])
  }

  @Test("A main-actor class takes a class that is not Sendable in its initializer, as it is")
  func nonSendableMembers() {
    let dispatcher = EventDispatcher()
    withInjectedValues {
      $0.analytics = Analytics(dispatcher: dispatcher)
    } operation: {
      InjectedValues[\.analytics].track("opened")
    }
    #expect(dispatcher.sent == ["opened"])
    #expect(InjectedValues[\.analytics].dispatcher !== dispatcher)
  }

  @Test(
    "A nil default and a composition of protocols are key values",
    .injecting {
      $0.videoClient = VideoClient(token: "mock")
      $0.feed = MockFeed()
    }
  )
  func keyValues() {
    #expect(InjectedValues[\.videoClient]?.token == "mock")
    #expect(InjectedValues[\.feed].load() == ["mock"])
    withInjectedValues {
      $0 = .empty
    } operation: {
      #expect(InjectedValues[\.videoClient] == nil)
      #expect(InjectedValues[\.feed].load() == ["live"])
    }
  }

  @Test(
    "A cache that locks itself, and a collection behind a lock, are used off the main actor",
    .injecting {
      $0.imageDataCache = ImageDataCache()
      $0.observerRegistry = ObserverRegistry()
    }
  )
  func lockedMembers() async {
    #expect(await registerObservers(50) == 50)
    #expect(InjectedValues[\.imageDataCache].data(for: "7") == Data([7]))
  }
}

struct MockFeed: FeedLoading, FeedCaching {
  func load() -> [String] { ["mock"] }
  func cached() -> [String] { ["cached mock"] }
}
