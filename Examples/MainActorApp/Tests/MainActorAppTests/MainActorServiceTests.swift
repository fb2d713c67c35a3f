import Injection
import Testing

@testable import MainActorApp

@Suite("Main-actor services as defaults")
struct MainActorServiceTests {
  @Test("A main-actor key creates its default once")
  func mainActorDefaultIsCreatedOnce() async {
    let first = InjectedValues[\.focusCoordinator]
    let fromTask = await Task { InjectedValues[\.focusCoordinator] }.value
    #expect(first === InjectedValues[\.focusCoordinator])
    #expect(first === fromTask)
  }

  @Test("A scope overrides a main-actor service")
  func mainActorServiceInAScope() {
    let coordinator = FocusCoordinator(focusedStep: "intro")
    withInjectedValues {
      $0.focusCoordinator = coordinator
    } operation: {
      #expect(InjectedValues[\.focusCoordinator] === coordinator)
      InjectedValues[\.focusCoordinator].focus("summary")
    }
    #expect(coordinator.focusedStep == "summary")
    #expect(InjectedValues[\.focusCoordinator] !== coordinator)
  }

  @Test("A nonisolated key creates its main-actor default once, read on any thread")
  func nonisolatedKeyDefaultIsCreatedOnce() async {
    let offMain = await Task.detached { InjectedValues[\.toastCenter] }.value
    let onMain = InjectedValues[\.toastCenter]
    #expect(offMain === onMain)
  }

  @Test("Code off the main actor calls the service with await")
  func serviceCalledFromOffTheMainActor() async {
    let toasts = ToastCenter()
    await withInjectedValues {
      $0.toastCenter = toasts
    } operation: {
      _ = await exportReport(["a"])
    }
    #expect(toasts.messages == ["Report exported"])
  }
}
