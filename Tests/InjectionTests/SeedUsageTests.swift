import Testing

@testable import Injection
@testable import SeedUsage

/// The seed's usage code, compiled unchanged in Swift 5 mode, checked from Swift 6.
@Suite("Seed usage")
struct SeedUsageTests {
  #if os(macOS) || os(Linux)  // the platforms with exit tests (none on iOS, tvOS, watchOS)
    @Test("The seed's test() prints what its comment says")
    func seedTestPrintsNetworkProvider() async {
      // `test()` sets global values, so it runs in a child process of its own.
      let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
        SeedUsage.test()
      }
      let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
      #expect(output == "Data requested using the `NetworkProvider`\n")
    }

    @Test("The seed's global story: default, then a global override through the wrapper")
    func seedGlobalStory() async {
      let result = await #expect(processExitsWith: .success) {
        let controller = TestDataStructure()
        guard controller.networkProvider is RealSubClass else { exit(1) }
        InjectedValues[\.networkProvider] = MockedSubClass()
        guard controller.networkProvider is MockedSubClass else { exit(2) }
        controller.networkProvider = RealSubClass()
        guard InjectedValues[\.networkProvider] is RealSubClass else { exit(3) }
      }
      #expect(result?.exitStatus == .exitCode(0))
    }
  #endif

  @Test("The seed's Self[...] accessor overrides only the scope it is set in")
  func seedAccessorIsScoped() {
    let controller = TestDataStructure()
    withInjectedValues {
      $0.networkProvider = MockedSubClass()
    } operation: {
      #expect(controller.networkProvider is MockedSubClass)
    }
    #expect(controller.networkProvider is RealSubClass)
  }

  // MARK: - Shapes from surveyed apps

  @Test("A read-only view works with @Injected and InjectedValues[...]")
  func readOnlyView() {
    #expect(QuoteScreen().title() == "live #0")
    #expect(InjectedValues[\.reader].quote() == "live #0")
    withInjectedValues {
      $0.quoteStore = QuoteStore(name: "mock")
    } operation: {
      #expect(QuoteScreen().title() == "mock #0")
      #expect(InjectedValues[\.reader].quote() == "mock #0")
    }
  }

  #if os(macOS) || os(Linux)  // the platforms with exit tests (none on iOS, tvOS, watchOS)
    @Test("Assigning through a read-only view's wrapper stops with a clear message")
    func readOnlyViewAssignmentStops() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        QuoteScreen().reader = QuoteStore(name: "nope")
      }
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(message.contains("cannot assign through @Injected("))
    }
  #endif

  @Test("A type that is its own key is read with InjectedValues[Ticker.self]")
  func typeIsItsOwnKey() {
    #expect(InjectedValues[Ticker.self].label == "default ticker")
    withInjectedValues {
      $0[Ticker.self] = Ticker(label: "mock ticker")
    } operation: {
      #expect(InjectedValues[Ticker.self].label == "mock ticker")
    }
  }

  @Test("Nested keys and unannotated wrappers resolve like any other")
  func nestedKeysAndUnannotatedWrappers() {
    #expect(LanguageSettings().language == "en")
    withInjectedValues {
      $0.language = "fr"
    } operation: {
      #expect(LanguageSettings().language == "fr")
    }
  }

  #if os(macOS) || os(Linux)  // the platforms with exit tests (none on iOS, tvOS, watchOS)
    @Test("A non-mutating method sets the global value through the wrapper")
    func nonMutatingSetterIsGlobal() async {
      let result = await #expect(processExitsWith: .success) {
        LanguageSettings().switchLanguage(to: "de")
        guard InjectedValues[\.language] == "de" else { exit(1) }
        // Scopes still win over the new global value.
        let scoped = withInjectedValues {
          $0.language = "it"
        } operation: {
          InjectedValues[\.language]
        }
        guard scoped == "it" else { exit(2) }
      }
      #expect(result?.exitStatus == .exitCode(0))
    }
  #endif

  @Test("An optional dependency overridden with nil reads nil")
  func optionalOverriddenWithNil() {
    #expect(SessionReader().token == "default-token")
    withInjectedValues {
      $0.sessionToken = nil
    } operation: {
      #expect(SessionReader().token == nil)
    }
  }

  @Test("@Injected works in an actor and in an XCTestCase subclass")
  func otherHosts() async {
    let worker = TranslationWorker()
    #expect(await worker.currentLanguage() == "en")
    let scoped = await withInjectedValues {
      $0.language = "es"
    } operation: {
      await worker.currentLanguage()
    }
    #expect(scoped == "es")
    #if canImport(Darwin)
      let testCase = LanguageHostTestCase()
    #else
      let testCase = LanguageHostTestCase(name: "languageSeenByTestCase", testClosure: { _ in })
    #endif
    #expect(testCase.languageSeenByTestCase() == "en")
    await withInjectedValues {
      $0.language = "pt"
    } operation: {
      #expect(testCase.languageSeenByTestCase() == "pt")
    }
  }

  @Test("A member of a class dependency changes through InjectedValues[\\.store].count = 3")
  func mutateThroughSubscript() {
    let store = QuoteStore(name: "scoped")
    withInjectedValues {
      $0.counterStore = store
    } operation: {
      bumpCounterThroughSubscript()
    }
    #expect(store.count == 3)
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
