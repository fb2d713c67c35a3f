#if canImport(XCTest)
  import Injection
  import InjectionTesting
  import XCTest

  @testable import MainActorApp

  // In a test target with default main-actor isolation, any XCTestCase subclass needs
  // `nonisolated`: its inherited initializers override XCTest's nonisolated ones. That makes
  // its members nonisolated too, so the override of `injectValues(_:)` says `@MainActor` again,
  // as the base class declares it; it then builds main-actor mocks as written. Test methods that
  // touch the app are `@MainActor` and `async`: a synchronous `@MainActor` test method crashes
  // XCTest's test discovery on Linux.
  nonisolated final class ThemeXCTests: InjectedTestCase {
    @MainActor
    override func injectValues(_ values: inout InjectedValues) {
      values.themeStore = ThemeStore(theme: "light")
      values.cartBadge = CartBadge(count: 3)
    }

    @MainActor
    func testReadsTheMocks() async {
      XCTAssertEqual(CartScreen().title(), "Cart (3), light")
    }

    @MainActor
    func testEachTestGetsFreshMocks() async {
      CartScreen().cartBadge.add()
      XCTAssertEqual(CartScreen().cartBadge.count, 4)
    }

    @MainActor
    func testEachTestGetsFreshMocksToo() async {
      CartScreen().themeStore.toggle()
      XCTAssertEqual(CartScreen().themeStore.theme, "dark")
    }
  }
#endif
