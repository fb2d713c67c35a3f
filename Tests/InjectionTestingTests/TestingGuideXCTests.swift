#if canImport(XCTest)
  // The XCTest examples of Docs/Testing.md, verbatim (indented for the `#if`), so that each one
  // compiles and runs. The shared declarations are in Support/GuideDeclarations.swift. Edit a
  // block here and in the guide together.

  import Injection
  import InjectionTesting

  // Mirrors Docs/Testing.md, "XCTest", first block.
  import XCTest

  final class ProfileXCTests: InjectedTestCase {
    override func injectValues(_ values: inout InjectedValues) {
      values.api = MockAPI(name: "Ada")
    }

    func testShowsTheUsersName() async throws {
      let title = try await ProfileModel().title(forUser: 1)
      XCTAssertEqual(title, "Profile of Ada")
    }
  }

  // Mirrors Docs/Testing.md, "XCTest", second block.
  final class ProfileInvokeTestXCTests: XCTestCase {
    override func invokeTest() {
      withInjectedValues {
        $0.api = MockAPI(name: "Grace")
      } operation: {
        super.invokeTest()
      }
    }

    func testShowsTheUsersName() async throws {
      let title = try await ProfileModel().title(forUser: 1)
      XCTAssertEqual(title, "Profile of Grace")
    }
  }

  // Mirrors Docs/Testing.md, "XCTest", third block.
  nonisolated final class CartBadgeXCTests: InjectedTestCase {
    @MainActor
    override func injectValues(_ values: inout InjectedValues) {
      values.cartBadge = CartBadge(count: 6)
    }

    @MainActor
    func testAddsOne() async {
      InjectedValues[\.cartBadge].add()
      XCTAssertEqual(InjectedValues[\.cartBadge].count, 7)
    }
  }

  // Mirrors Docs/Testing.md, "Migrating from global mocks set in `setUp`", first block.
  final class LegacyProfileXCTests: XCTestCase {
    override func setUp() {
      super.setUp()
      InjectedValues[\.api] = MockAPI(name: "Ada")  // every test running now sees this
    }

    override func tearDown() {
      InjectedValues[\.api] = LiveAPI()  // and every test must remember to undo it
      super.tearDown()
    }

    func testShowsTheUsersName() async throws {
      let title = try await ProfileModel().title(forUser: 1)
      XCTAssertEqual(title, "Profile of Ada")
    }
  }
#endif
