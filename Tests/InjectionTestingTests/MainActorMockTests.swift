import Injection
import InjectionTesting
import Testing

// This target has no default isolation; Examples/MainActorApp has the same tests in a target
// that has it.

/// A main-actor class, as every class of a module with default main-actor isolation is.
@MainActor
final class ThemeStore {
  private(set) var theme: String

  /// For the key's default, created on whichever thread reads the key first.
  nonisolated init() { theme = "dark" }

  /// Isolated to the main actor: what tests call to build their mocks.
  init(theme: String) { self.theme = theme }

  func toggle() { theme = theme == "dark" ? "light" : "dark" }
}

struct ThemeStoreKey: InjectionKey {
  static let currentValue = ThemeStore()
}

extension InjectedValues {
  var themeStore: ThemeStore {
    get { self[ThemeStoreKey.self] }
    set { self[ThemeStoreKey.self] = newValue }
  }
}

/// An update closure written before the trait's closures ran on the main actor: a nonisolated
/// function passed by name.
@Sendable
private func nonisolatedUpdate(_ values: inout InjectedValues) async throws {
  values.name = "from a function"
}

@Suite(
  "Main-actor mocks in the .injecting trait",
  .injecting { $0.themeStore = ThemeStore(theme: "light") }
)
struct MainActorMockTests {
  @Test("A suite's trait builds a main-actor mock with its main-actor initializer")
  func suiteTrait() async {
    #expect(await InjectedValues[\.themeStore].theme == "light")
  }

  @Test(
    "The update runs on the main actor, whatever the test body's isolation",
    .injecting {
      // `@MainActor` by its type; this checks the executor it runs on, in release builds too.
      MainActor.preconditionIsolated()
      $0.count = 1
    }
  )
  func updateRunsOnTheMainActor() async {
    #expect(InjectedValues[\.count] == 1)
  }

  @Test(
    "Each case of a parameterized test gets its own main-actor mock",
    .injecting { $0.themeStore = ThemeStore(theme: "light") },
    arguments: [1, 2, 3]
  )
  func parameterized(toggles: Int) async {
    let store = InjectedValues[\.themeStore]
    for _ in 0..<toggles { await store.toggle() }
    #expect(await store.theme == (toggles.isMultiple(of: 2) ? "light" : "dark"))
  }

  @Test(
    "A value declared with lazy, with a @Sendable factory, beside a main-actor mock",
    .injecting {
      $0.themeStore = ThemeStore(theme: "light")
      $0.lazy(\.name) { "built on first read" }
    }
  )
  func lazyValueBesideAMainActorMock() async {
    #expect(InjectedValues[\.name] == "built on first read")
    #expect(await InjectedValues[\.themeStore].theme == "light")
  }

  @Test(
    "A mock built on the main actor is read off it, in child tasks too",
    .injecting { $0.greeting = MockGreeting(word: "Hi") }
  )
  func mockReadOffTheMainActor() async {
    #expect(Greeter().greet("Ada") == "Hi, Ada")
    let fromDetachedSnapshot = await Task.detached { [values = InjectedValues.current] in
      withInjectedValues(values) { Greeter().greet("Ada") }
    }.value
    #expect(fromDetachedSnapshot == "Hi, Ada")
  }

  @Test("A nonisolated update function passed by name still works", .injecting(nonisolatedUpdate))
  func nonisolatedFunction() {
    #expect(InjectedValues[\.name] == "from a function")
  }

  @Test("A main-actor test reads the mock synchronously")
  @MainActor
  func mainActorTest() {
    InjectedValues[\.themeStore].toggle()
    #expect(InjectedValues[\.themeStore].theme == "dark")
  }
}

#if canImport(XCTest)
  import XCTest

  /// Without default isolation, the override needs no annotation: it is isolated to the main
  /// actor, as the base class declares, and builds main-actor mocks as written.
  final class MainActorMockXCTests: InjectedTestCase {
    override func injectValues(_ values: inout InjectedValues) {
      values.themeStore = ThemeStore(theme: "light")
      MainActor.preconditionIsolated()
    }

    func testNonisolatedTestReadsTheMock() async {
      let theme = await InjectedValues[\.themeStore].theme
      XCTAssertEqual(theme, "light")
    }

    @MainActor
    func testMainActorTestReadsTheMock() async {
      InjectedValues[\.themeStore].toggle()
      XCTAssertEqual(InjectedValues[\.themeStore].theme, "dark")
    }
  }

  #if os(Linux)
    @Suite("InjectedTestCase off the main thread")
    struct InjectedTestCaseOffTheMainThreadTests {
      @Test("invokeTest() called off the main thread stops the program with a message")
      func invokeTestOffTheMainThreadStops() async {
        // A nonisolated `async` body runs on the global executor, never on the main thread.
        let result = await #expect(
          processExitsWith: .failure,
          observing: [\.standardErrorContent]
        ) {
          MainActorMockXCTests(name: "offMain", testClosure: { _ in }).invokeTest()
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
          message.contains("MainActorMockXCTests.invokeTest() was called off the main thread")
        )
        #expect(message.contains("XCTest calls invokeTest() on the main thread"))
      }
    }
  #endif

  // Mirrors the doc comment of `InjectedTestCase`, second example: the form a test target with
  // default main-actor isolation needs, which compiles without it too.
  nonisolated final class ThemeTests: InjectedTestCase {
    @MainActor
    override func injectValues(_ values: inout InjectedValues) {
      values.themeStore = ThemeStore(theme: "light")
    }

    @MainActor
    func testShowsTheLightTheme() async {
      XCTAssertEqual(InjectedValues[\.themeStore].theme, "light")
    }
  }
#endif
