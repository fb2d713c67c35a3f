import Injection
import Testing

@testable import MainActorApp

@Suite("A main-actor view model with @Injected")
struct ProfileViewModelTests {
  @Test("@Injected over main-actor accessors reads the scope active at each access")
  func readsTheScope() {
    let model = ProfileViewModel()
    let coordinator = FocusCoordinator()
    withInjectedValues {
      $0.networkProvider = MockNetworkProvider()
      $0.focusCoordinator = coordinator
    } operation: {
      model.load()
    }
    #expect(model.text == "mock data")
    #expect(coordinator.focusedStep == "profile")
    #expect(model.focusCoordinator === InjectedValues[\.focusCoordinator])
    #expect(model.networkProvider.requestData() == "live data")
  }

  @Test("Its scope reaches the work it runs off the main actor")
  func scopeReachesExport() async {
    let model = ProfileViewModel()
    let toasts = ToastCenter()
    let report = await withInjectedValues {
      $0.networkProvider = MockNetworkProvider()
      $0.focusCoordinator = FocusCoordinator()
      $0.reportRenderer = ShoutingRenderer()
      $0.toastCenter = toasts
    } operation: {
      model.load()
      return await model.export()
    }
    #expect(report == "MOCK DATA")
    #expect(toasts.messages == ["Report exported"])
  }
}
