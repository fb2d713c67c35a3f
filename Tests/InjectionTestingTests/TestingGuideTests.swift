import Injection
import InjectionTesting
import Testing

// The Swift Testing examples of Docs/Testing.md, verbatim, one block after another, so that each
// one compiles and runs. The shared declarations are in Support/GuideDeclarations.swift; the
// XCTest examples are in TestingGuideXCTests.swift. Edit a block here and in the guide together.

// Mirrors Docs/Testing.md, "Parallel tests with the traits", first block.
@Suite("Profile")
struct ProfileTests {
  @Test("Shows the user's name", .injecting { $0.api = MockAPI(name: "Ada") })
  func showsTheUsersName() async throws {
    #expect(try await ProfileModel().title(forUser: 1) == "Profile of Ada")
  }
}

// Mirrors Docs/Testing.md, "Parallel tests with the traits", second block.
@Suite("Profile, with a mock API in every test", .injecting { $0.api = MockAPI(name: "Ada") })
struct MockedProfileTests {
  @Test("Uses the suite's mock")
  func usesTheSuitesMock() async throws {
    #expect(try await ProfileModel().title(forUser: 1) == "Profile of Ada")
  }

  @Test("Replaces the suite's mock", .injecting { $0.api = MockAPI(name: "Grace") })
  func replacesTheSuitesMock() async throws {
    #expect(try await ProfileModel().title(forUser: 1) == "Profile of Grace")
  }
}

// Mirrors Docs/Testing.md, "Parallel tests with the traits", third block.
@Suite("Profile, parameterized")
struct ParameterizedProfileTests {
  @Test(
    "Every case gets a fresh mock, loaded from a fixture",
    .injecting { $0.api = try await MockAPI.loadFixture() },
    arguments: [1, 2, 3]
  )
  func loadsEachUser(id: Int) async throws {
    #expect(try await ProfileModel().title(forUser: id) == "Profile of Fixture")
  }

  // Mirrors Docs/Testing.md, "Parallel tests with the traits", the scope in the body.
  @Test("Each argument gets its own mock", arguments: ["Ada", "Grace"])
  func showsEachName(name: String) async throws {
    try await withInjectedValues {
      $0.api = MockAPI(name: name)
    } operation: { () async throws in
      let model = ProfileModel()
      #expect(try await model.title(forUser: 1) == "Profile of \(name)")
    }
  }
}

// Mirrors Docs/Testing.md, "A resource per test, built on first use" (the declarations are in
// Support/GuideDeclarations.swift).
@Suite(
  "Profile, with a scratch store per test",
  .injecting {
    $0.lazy(\.scratchStore) {
      ScratchStore(name: "scratch")
    } teardown: {
      await $0.remove()
    }
  }
)
struct ScratchStoreTests {
  @Test("Gets its own store")
  func getsItsOwnStore() {
    #expect(InjectedValues[\.scratchStore].name == "scratch")
  }
}

// Mirrors Docs/Testing.md, "A spy: record what the code did, read it back" (the declarations
// are in Support/GuideDeclarations.swift).
@Suite("Checkout")
struct CheckoutTests {
  @Test("Paying tracks the payment and the receipt")
  func payingTracksBothEvents() async {
    let spy = SpyAnalytics()
    await withInjectedValues {
      $0.analytics = spy
    } operation: {
      await Checkout().pay()
    }
    #expect(spy.events.sorted() == ["paid", "receipt sent"])
  }

  @Test("The same, with the spy set by the trait", .injecting { $0.analytics = SpyAnalytics() })
  func payingTracksBothEventsWithTheTrait() async throws {
    await Checkout().pay()
    let spy = try #require(InjectedValues[\.analytics] as? SpyAnalytics)
    #expect(spy.events.sorted() == ["paid", "receipt sent"])
  }
}

// Mirrors Docs/Testing.md, "Main-actor mocks".
/// Main-actor state, as every class of an app with default main-actor isolation is.
@MainActor
final class CartBadge {
  private(set) var count: Int

  init(count: Int) { self.count = count }  // isolated to the main actor, like the class

  func add() { count += 1 }
}

@MainActor
struct CartBadgeKey: @MainActor InjectionKey {
  static let currentValue = CartBadge(count: 0)
}

@MainActor
extension InjectedValues {
  var cartBadge: CartBadge {
    get { self[CartBadgeKey.self] }
    set { self[CartBadgeKey.self] = newValue }
  }
}

@Suite("Cart badge", .injecting { $0.cartBadge = CartBadge(count: 6) })
struct CartBadgeTests {
  @Test("Adds one")
  @MainActor
  func addsOne() {
    InjectedValues[\.cartBadge].add()
    #expect(InjectedValues[\.cartBadge].count == 7)
  }

  @Test("Each case starts from the suite's mock", arguments: [1, 2])
  func startsFromTheSuitesMock(additions: Int) async {
    await MainActor.run {
      for _ in 0..<additions { InjectedValues[\.cartBadge].add() }
      #expect(InjectedValues[\.cartBadge].count == 6 + additions)
    }
  }
}

// Mirrors Docs/Testing.md, "Strict mode", first Swift block.
@Suite("Profile, strict", .strictInjection(allowing: \.logger))
struct StrictProfileTests {
  @Test("Uses no live dependency", .injecting { $0.api = MockAPI(name: "Ada") })
  func usesNoLiveDependency() async throws {
    #expect(try await ProfileModel().title(forUser: 1) == "Profile of Ada")
  }
}

// Mirrors Docs/Testing.md, "Strict mode", second Swift block.
@Suite("Profile defaults")
struct ProfileDefaultsTests {
  @Test("Uses the live API", .strictInjection(allowing: \.api, \.logger))
  func usesTheLiveAPI() async throws {
    #expect(try await ProfileModel().title(forUser: 1) == "Profile of user 1")
  }
}

// Mirrors Docs/Testing.md, "Main-actor accessors".
@MainActor  // implied in a target with default main-actor isolation
@Suite("Cart badge, live")
struct LiveCartBadgeTests {
  @Test("Starts empty", .strictInjection(allowing: \.cartBadge))
  func startsEmpty() {
    #expect(InjectedValues[\.cartBadge].count == 0)
  }
}

// Mirrors Docs/Testing.md, "Reading provenance".
@Suite("Profile provenance")
struct ProfileProvenanceTests {
  @Test("Sees the mock", .injecting { $0.api = MockAPI(name: "Ada") })
  func seesTheMock() async throws {
    let source = InjectedValues.current.source(of: \.api)
    #expect(source != .defaultValue, "api comes from the \(source)\n\(InjectedValues.current)")
  }
}

// Mirrors Docs/Testing.md, "Migrating from global mocks set in `setUp`", second block.
@Suite(
  "Profile, migrated",
  .injecting { $0.api = MockAPI(name: "Ada") },
  .strictInjection(allowing: \.logger)
)
struct MigratedProfileTests {
  @Test("Shows the user's name")
  func showsTheUsersName() async throws {
    #expect(try await ProfileModel().title(forUser: 1) == "Profile of Ada")
  }
}
