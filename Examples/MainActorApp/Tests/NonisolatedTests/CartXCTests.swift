#if canImport(XCTest)
  import Injection
  import InjectionTesting
  import XCTest

  @testable import MainActorApp

  // Without default isolation, the class needs no edit: `injectValues(_:)` is isolated to the
  // main actor, as the base class declares, and builds the app's main-actor mocks.
  final class CartXCTests: InjectedTestCase {
    override func injectValues(_ values: inout InjectedValues) {
      values.cartBadge = CartBadge(count: 6)
    }

    @MainActor
    func testMainActorTest() async {
      XCTAssertEqual(CartScreen().cartBadge.count, 6)
    }

    func testNonisolatedTest() async {
      let count = await MainActor.run { CartScreen().cartBadge.count }
      XCTAssertEqual(count, 6)
    }
  }
#endif
