// A view model, isolated to the main actor by default like the view that owns it, reading
// main-actor dependencies with `@Injected`.
import Injection
import Observation

@Observable
final class ProfileViewModel {
  // The accessors are isolated to the main actor, so their key paths are not `Sendable`; inside a
  // main-actor type, `@Injected` takes them anyway. `@ObservationIgnored` because `@Observable`
  // cannot track a property wrapper; nothing is lost, since each access resolves anew.
  @ObservationIgnored @Injected(\.networkProvider) var networkProvider
  @ObservationIgnored @Injected(\.focusCoordinator) var focusCoordinator

  private(set) var text = ""

  func load() {
    text = networkProvider.requestData()
    focusCoordinator.focus("profile")
  }

  /// Exports off the main actor; the scope the caller runs in reaches `exportReport`.
  func export() async -> String {
    await exportReport([text])
  }
}
