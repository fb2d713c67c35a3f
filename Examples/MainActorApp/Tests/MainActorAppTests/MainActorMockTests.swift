import Injection
import InjectionTesting
import Testing

@testable import MainActorApp

/// A renderer that tells one test case's from another's.
nonisolated final class LabelledRenderer: ReportRenderer {
  func render(_ entries: [String]) -> String {
    "\(ObjectIdentifier(self).hashValue): " + entries.joined(separator: ", ")
  }
}

// `ThemeStore(theme:)` and `CartBadge(count:)` are main-actor initializers: the update closures
// of `.injecting` run on the main actor, so they call them as written.
@Suite(
  "Main-actor mocks built by the .injecting trait",
  .injecting { $0.themeStore = ThemeStore(theme: "light") }
)
struct MainActorMockTests {
  @Test("The suite's trait builds the mock")
  func suiteTrait() {
    #expect(CartScreen().themeStore.theme == "light")
  }

  @Test("A test's trait adds to the suite's", .injecting { $0.cartBadge = CartBadge(count: 6) })
  func testTrait() {
    #expect(CartScreen().title() == "Cart (6), light")
  }

  @Test(
    "Each case of a parameterized test gets its own mocks",
    .injecting { $0.cartBadge = CartBadge(count: 0) },
    arguments: 1...4
  )
  func parameterized(additions: Int) {
    for _ in 0..<additions { CartScreen().cartBadge.add() }
    #expect(CartScreen().cartBadge.count == additions)
  }

  @Test(
    "Strict mode: every dependency the screen reads is overridden",
    .strictInjection,
    .injecting { $0.cartBadge = CartBadge(count: 2) }
  )
  func strictMode() {
    #expect(CartScreen().title() == "Cart (2), light")
  }

  // The factory is `@Sendable`, and so nonisolated: it builds a nonisolated value, which
  // `exportReport` reads off the main actor.
  @Test(
    "A value built on first use, once per test case",
    .injecting {
      $0.lazy(\.reportRenderer) { LabelledRenderer() }
      $0.toastCenter = ToastCenter()
    },
    arguments: ["a", "b"]
  )
  func lazyValue(entry: String) async throws {
    let renderer = try #require(InjectedValues[\.reportRenderer] as? LabelledRenderer)
    let report = await exportReport([entry])
    #expect(report == renderer.render([entry]), "the same value, read off the main actor")
  }
}
