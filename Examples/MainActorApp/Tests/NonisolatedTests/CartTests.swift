import Injection
import InjectionTesting
import Testing

@testable import MainActorApp

/// A renderer of this target, which, without default isolation, is nonisolated.
struct UppercaseRenderer: ReportRenderer {
  func render(_ entries: [String]) -> String {
    entries.joined(separator: " ").uppercased()
  }
}

// This target has no default isolation, but the app's classes are main-actor isolated whatever
// the test target's setting: the trait's update closure runs on the main actor, so it builds
// them as written.
@Suite(
  "A nonisolated test target testing a default-MainActor app",
  .injecting { $0.cartBadge = CartBadge(count: 6) }
)
struct CartTests {
  @Test("A main-actor test reads the main-actor mock")
  @MainActor
  func mainActorTest() {
    #expect(CartScreen().title() == "Cart (6), dark")
  }

  @Test("A nonisolated test stays off the main actor, and awaits main-actor code")
  func nonisolatedTest() async {
    let title = await MainActor.run { CartScreen().title() }
    #expect(title == "Cart (6), dark")
  }

  @Test(
    "A mock built on the main actor is read off it",
    .injecting {
      $0.reportRenderer = UppercaseRenderer()
      $0.toastCenter = ToastCenter()
    }
  )
  func mockReadOffTheMainActor() async {
    #expect(InjectedValues[\.reportRenderer].render(["a", "b"]) == "A B")
    #expect(await exportReport(["a"]) == "A")
  }

  @Test(
    "Each case of a parameterized test gets its own main-actor mock",
    .injecting { $0.themeStore = ThemeStore(theme: "light") },
    arguments: [1, 2]
  )
  @MainActor
  func parameterized(toggles: Int) {
    for _ in 0..<toggles { CartScreen().themeStore.toggle() }
    #expect(CartScreen().themeStore.theme == (toggles.isMultiple(of: 2) ? "light" : "dark"))
  }
}
