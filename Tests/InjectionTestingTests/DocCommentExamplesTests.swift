import Injection
import InjectionTesting
import Testing

// The examples in the doc comments of InjectionTesting's Swift Testing API, verbatim, so that
// each one compiles and runs. The XCTest ones are in InjectedTestCaseTests.swift.

@Suite("Doc comment examples")
struct DocCommentExamplesTests {
  // Mirrors the doc comment of `InjectingTrait`.
  @Test("Greets with the mock", .injecting { $0.greeting = MockGreeting(word: "Hi") })
  func greetsWithTheMock() {
    #expect(Greeter().greet("Ada") == "Hi, Ada")
  }

  // Mirrors the doc comment of `InjectingTrait`, second example.
  @Test("Shows the light theme", .injecting { $0.themeStore = ThemeStore(theme: "light") })
  func showsTheLightTheme() async {
    #expect(await InjectedValues[\.themeStore].theme == "light")
  }

  @Test("InjectingTrait.provideScope(for:testCase:performing:) runs the body in the scope")
  func injectingProvideScope() async throws {
    let trait: InjectingTrait = .injecting { $0.count = 7 }
    try await trait.provideScope(for: Test.current!, testCase: nil) {
      #expect(InjectedValues[\.count] == 7)
    }
  }

  // Mirrors the doc comment of `StrictInjectionTrait`.
  @Test(
    "Greets without live dependencies",
    .strictInjection(allowing: \.clock),
    .injecting { $0.greeting = MockGreeting(word: "Hi") }
  )
  func greetsWithoutLiveDependencies() {
    #expect(Greeter().greet("Ada") == "Hi, Ada")
  }

  @Test("StrictInjectionTrait.provideScope(for:testCase:performing:) reports a fallback")
  func strictProvideScope() async throws {
    let trait: StrictInjectionTrait = .strictInjection
    let log = StrictReportLog()
    try await trait.provideScope(for: Test.current!, testCase: nil) {
      log.capture { _ = InjectedValues[\.count] }  // a fallback to the default
    }
    #expect(log.summaries == [fellBack("CountKey", to: .defaultValue)])
  }

  // Mirrors the doc comment of `Trait.strictInjection`.
  @Test(
    "Uses only mocks",
    .strictInjection,
    .injecting { $0.greeting = MockGreeting(word: "Hi") }
  )
  func usesOnlyMocks() {
    #expect(Greeter().greet("Ada") == "Hi, Ada")
  }

  // Mirrors the doc comment of `Trait.strictInjection(allowing:)`.
  @Test("Reads the live clock and logger", .strictInjection(allowing: \.clock, \.logger))
  func readsTheLiveClockAndLogger() {
    _ = InjectedValues[\.clock]  // no issue: allowed
    _ = InjectedValues[\.logger]  // no issue: allowed
  }

  // Mirrors the doc comment of `Trait.strictInjection(allowingKeys:)`.
  @Test("Reads the live clock", .strictInjection(allowingKeys: ClockKey.self))
  func readsTheLiveClock() {
    _ = InjectedValues[ClockKey.self]  // no issue: allowed
  }
}

// Mirrors the doc comment of `Trait.strictInjection(allowing:)`, the form for main-actor
// accessors (`cartBadge` is declared in TestingGuideTests.swift).
@MainActor  // implied in a target with default main-actor isolation
@Suite("Cart badge, strictly")
struct StrictCartBadgeTests {
  @Test("Reads the live badge", .strictInjection(allowing: \.cartBadge))
  func readsTheLiveBadge() {
    _ = InjectedValues[\.cartBadge]  // no issue: allowed
  }
}

// `InjectingTrait.isRecursive`: the trait reaches the tests of nested suites.
@Suite("Outer", .injecting { $0.count = 1 })
struct OuterTests {
  @Suite("Inner")
  struct InnerTests {
    @Test("Sees the outer suite's override")
    func seesTheOuterSuitesOverride() {
      #expect(InjectedValues[\.count] == 1)
    }
  }
}

// Mirrors the doc comment of `Trait.injecting(_:fileID:line:)`.
@Suite("Counting", .injecting { $0.count = 1 })
struct CountingTests {
  @Test("Builds on the suite's override", .injecting { $0.count += 1 })
  func buildsOnTheSuite() {
    #expect(InjectedValues[\.count] == 2)
  }

  @Test("Loads a fixture", .injecting { $0.count = try await loadFixtureCount() })
  func loadsAFixture() {
    #expect(InjectedValues[\.count] == 42)
  }
}

// `StrictInjectionTrait.isRecursive`: strict mode reaches the tests of nested suites.
@Suite("Strict", .strictInjection)
struct StrictTests {
  @Suite("Nested")
  struct NestedTests {
    @Test("Is strict too", .injecting { $0.count = 1 })
    func isStrictToo() {
      #expect(InjectedValues[\.count] == 1)
    }
  }
}
