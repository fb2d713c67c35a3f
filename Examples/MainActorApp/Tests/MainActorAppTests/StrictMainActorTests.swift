import Injection
import InjectionTesting
import Testing

@testable import MainActorApp

// The app's keys are private to it, so strict mode allows its dependencies by their accessors.
// `themeStore` and `cartBadge` are main-actor accessors: their key paths are not `Sendable`, and
// select the form of `.strictInjection(allowing:)` that runs on the main actor, as this target's
// code does by default. A strict issue fails these tests.
@Suite("Strict mode allowing main-actor accessors", .strictInjection(allowing: \.themeStore))
struct StrictMainActorTests {
  @Test(
    "The suite allows the theme and the test the badge, so both may fall back",
    .strictInjection(allowing: \.cartBadge)
  )
  func bothAllowed() {
    #expect(CartScreen().title() == "Cart (0), dark")
  }

  @Test(
    "One list takes main-actor and nonisolated accessors",
    .strictInjection(allowing: \.cartBadge, \.reportRenderer)
  )
  func mixedList() {
    #expect(CartScreen().title() == "Cart (0), dark")
    #expect(InjectedValues[\.reportRenderer].render(["a"]) == "- a")
  }

  @Test(
    "A mock for the badge, the theme allowed",
    .injecting { $0.cartBadge = CartBadge(count: 5) }
  )
  func mockAndAllowed() {
    #expect(CartScreen().title() == "Cart (5), dark")
  }
}
