import Injection
import Testing

// The recipes of "Migrating from the seed pattern" for main-actor services and static
// properties, in the Swift 6 language mode without default isolation. The example package
// Examples/MainActorApp compiles the same recipes with default main-actor isolation.

// MARK: - A main-actor service with a nonisolated initializer

@MainActor
private final class Router {
  private(set) var path: [String] = []

  // `nonisolated` lets a nonisolated key's `static let` create it, on whichever thread reads the
  // key first. The initializer only sets stored properties; every method stays on the main actor.
  nonisolated init() {}

  func open(_ screen: String) {
    path.append(screen)
  }
}

private struct RouterKey: InjectionKey {
  static let currentValue = Router()
}

extension InjectedValues {
  fileprivate var router: Router {
    get { self[RouterKey.self] }
    set { self[RouterKey.self] = newValue }
  }
}

// MARK: - A main-actor class without an explicit initializer

/// Its implicit initializer is nonisolated, because its stored properties' default values are:
/// such a class needs no change.
@MainActor
private final class BadgeCounter {
  private(set) var count = 0
  func increment() { count += 1 }
}

private struct BadgeCounterKey: InjectionKey {
  static let currentValue = BadgeCounter()
}

extension InjectedValues {
  fileprivate var badgeCounter: BadgeCounter {
    get { self[BadgeCounterKey.self] }
    set { self[BadgeCounterKey.self] = newValue }
  }
}

// MARK: - Static properties

/// The replacement for `@Injected(\.router) static var router`, which the Swift 6 language mode
/// rejects outside main-actor types: a computed static property.
private enum Navigation {
  static var router: Router { InjectedValues[\.router] }
}

/// The static-property recipe with a setter, over a key of its own (the setter writes globally).
private struct QuoteKey: InjectionKey {
  static let currentValue = "live quote"
}

extension InjectedValues {
  fileprivate var quote: String {
    get { self[QuoteKey.self] }
    set { self[QuoteKey.self] = newValue }
  }
}

private enum Quotes {
  static var quote: String {
    get { InjectedValues[\.quote] }
    set { InjectedValues[\.quote] = newValue }  // the global value, as the wrapper's setter
  }
}

// MARK: - Writes to a key's `currentValue`

private struct ThemeKey: InjectionKey {
  // The seed's `static var`, in the Swift 6 language mode. Only `writesToCurrentValue` uses it.
  nonisolated(unsafe) static var currentValue = "light"
}

extension InjectedValues {
  fileprivate var theme: String {
    get { Self[ThemeKey.self] }
    set { Self[ThemeKey.self] = newValue }
  }
}

@Suite("Main-actor recipes")
struct MainActorRecipesTests {
  @Test("A nonisolated init: the default is created once, whichever thread reads first")
  func nonisolatedInitCreatesTheDefaultOnce() async {
    let offMain = await withTaskGroup(of: Router.self) { group in
      for _ in 0..<8 { group.addTask { InjectedValues[\.router] } }
      return await group.reduce(into: []) { $0.append($1) }
    }
    let onMain = await MainActor.run { InjectedValues[\.router] }
    #expect(offMain.allSatisfy { $0 === onMain })
  }

  @Test("A nonisolated init: code off the main actor calls the service with await")
  func nonisolatedInitServiceOffTheMainActor() async {
    let router = await MainActor.run { Router() }
    await withInjectedValues {
      $0.router = router
    } operation: {
      await InjectedValues[\.router].open("settings")
    }
    #expect(await router.path == ["settings"])
  }

  @Test("A class whose implicit initializer is nonisolated works as it is")
  @MainActor
  func implicitInitializer() {
    let counter = InjectedValues[\.badgeCounter]
    #expect(counter === InjectedValues[\.badgeCounter])
    let mock = BadgeCounter()
    withInjectedValues {
      $0.badgeCounter = mock
    } operation: {
      InjectedValues[\.badgeCounter].increment()
    }
    #expect(mock.count == 1)
  }

  @Test("A computed static property reads the scope active at each access")
  @MainActor
  func staticProperty() {
    let router = Router()
    #expect(Navigation.router !== router)
    withInjectedValues {
      $0.router = router
    } operation: {
      #expect(Navigation.router === router)
    }
  }

  @Test("A static property's setter sets the global value; its getter reads the current scope")
  func staticPropertyWithSetter() {
    defer { InjectedValues.resetGlobal(\.quote) }
    #expect(Quotes.quote == "live quote")
    withInjectedValues {
      $0.quote = "scoped quote"
    } operation: {
      #expect(Quotes.quote == "scoped quote")
      Quotes.quote = "global quote"
      #expect(Quotes.quote == "scoped quote", "the scope's override still wins inside it")
    }
    #expect(Quotes.quote == "global quote")
    #expect(InjectedValues.current.source(of: \.quote) == .global)
  }

  @Test("A global value hides writes to the key's currentValue")
  func writesToCurrentValue() {
    #expect(InjectedValues[\.theme] == "light")
    ThemeKey.currentValue = "dark"
    #expect(InjectedValues[\.theme] == "dark")
    InjectedValues[\.theme] = "global"
    ThemeKey.currentValue = "sepia"
    #expect(InjectedValues[\.theme] == "global")
    InjectedValues[ThemeKey.self] = "through the key type"
    #expect(InjectedValues[\.theme] == "through the key type")
    InjectedValues.resetGlobal(\.theme)
    #expect(InjectedValues[\.theme] == "sepia")
  }
}

#if compiler(>=6.2)
  // MARK: - A main-actor key (Swift 6.2 and later)

  @MainActor
  private final class FocusCoordinator {
    private(set) var focusedStep: String?

    init(focusedStep: String? = nil) {
      self.focusedStep = focusedStep
    }

    func focus(_ step: String) { focusedStep = step }
  }

  // An isolated conformance: the key's requirements are met on the main actor, so its
  // `static let` may call the main-actor initializer, and only main-actor code can use the key.
  @MainActor
  private struct FocusCoordinatorKey: @MainActor InjectionKey {
    static let currentValue = FocusCoordinator()
  }

  @MainActor
  extension InjectedValues {
    fileprivate var focusCoordinator: FocusCoordinator {
      get { self[FocusCoordinatorKey.self] }
      set { self[FocusCoordinatorKey.self] = newValue }
    }
  }

  @MainActor
  private final class GuideViewModel {
    // A key path to a main-actor accessor is not `Sendable`; in a main-actor type, `@Injected`
    // takes it anyway.
    @Injected(\.focusCoordinator) var focusCoordinator

    func start() { focusCoordinator.focus("welcome") }
  }

  /// Runs off the main actor (a nonisolated `async` function, in the Swift 6 language mode), where
  /// the key cannot be read: it hops to the main actor, in the same task, so it sees the scope.
  nonisolated private func focusedStepFromOffTheMainActor() async -> String? {
    await MainActor.run { InjectedValues[\.focusCoordinator].focusedStep }
  }

  @Suite("Main-actor recipes: a main-actor key")
  struct MainActorKeyTests {
    @Test("The default is created once, on the main actor")
    @MainActor
    func createdOnce() async {
      let first = InjectedValues[\.focusCoordinator]
      let fromTask = await Task { InjectedValues[\.focusCoordinator] }.value
      #expect(first === fromTask)
      #expect(first === GuideViewModel().focusCoordinator)
    }

    @Test("@Injected in a main-actor type reads the scope active at each access")
    @MainActor
    func injectedInAMainActorType() {
      let mock = FocusCoordinator()
      let model = GuideViewModel()
      withInjectedValues {
        $0.focusCoordinator = mock
      } operation: {
        model.start()
      }
      #expect(mock.focusedStep == "welcome")
      #expect(model.focusCoordinator !== mock)
    }

    @Test("Code off the main actor reads it on the main actor, in the same scope")
    @MainActor
    func offTheMainActor() async {
      let mock = FocusCoordinator(focusedStep: "mock")
      let step = await withInjectedValues {
        $0.focusCoordinator = mock
      } operation: {
        await focusedStepFromOffTheMainActor()
      }
      #expect(step == "mock")
    }
  }
#endif
