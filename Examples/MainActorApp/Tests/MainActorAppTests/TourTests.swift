import Injection
import InjectionTesting
import Testing

@testable import MainActorApp

// Like the app, this module is isolated to the main actor by default: so are these tests.
@Suite("The README's tour, with default main-actor isolation")
struct TourTests {
  @Test("The default, a scope's override, then the default again")
  func scopes() {
    #expect(DataController().load() == "live data")
    withInjectedValues {
      $0.networkProvider = MockNetworkProvider()
    } operation: {
      #expect(DataController().load() == "mock data")
    }
    #expect(DataController().load() == "live data")
  }

  @Test(
    "The .injecting trait overrides a main-actor dependency",
    .injecting { $0.networkProvider = MockNetworkProvider() }
  )
  func injectingTrait() {
    #expect(DataController().load() == "mock data")
  }

  @Test("Tasks started in a scope see its override")
  func tasksInheritTheScope() async {
    await withInjectedValues {
      $0.networkProvider = MockNetworkProvider()
    } operation: {
      let loaded = await Task { DataController().load() }.value
      #expect(loaded == "mock data")
    }
  }

  // Synchronous on the main actor, so no other test runs between the write and the reset: the
  // key is isolated to the main actor, so only main-actor code reads it.
  @Test("A global value is the fallback outside scopes")
  func globalValue() {
    InjectedValues[\.networkProvider] = MockNetworkProvider()
    defer { InjectedValues.resetGlobal(\.networkProvider) }
    #expect(DataController().load() == "mock data")
    withInjectedValues {
      $0.networkProvider = LiveNetworkProvider()
    } operation: {
      #expect(DataController().load() == "live data")
    }
  }
}
