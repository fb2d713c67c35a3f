import Injection
import InjectionTesting
import Testing

@testable import MainActorApp

// As in MainActorAppTests, in a target with default main-actor isolation but neither upcoming
// feature: the main-actor accessors select the form of `.strictInjection(allowing:)` that runs
// on the main actor. A strict issue fails these tests.
@Suite("Strict mode allowing main-actor accessors, without the upcoming features")
struct StrictMainActorTests {
  @Test(
    "A test allows the theme and the badge by their accessors",
    .strictInjection(allowing: \.themeStore, \.cartBadge)
  )
  func bothAllowed() {
    #expect(CartScreen().title() == "Cart (0), dark")
  }

  @Test(
    "A mock for the theme, the badge allowed",
    .strictInjection(allowing: \.cartBadge),
    .injecting { $0.themeStore = ThemeStore(theme: "light") }
  )
  func mockAndAllowed() {
    #expect(CartScreen().title() == "Cart (0), light")
  }
}
