// Main-actor classes as keys' defaults. A key's `static let` runs on whichever thread reads the
// key first, so it can call only a nonisolated initializer; an `init()` the class declares is
// isolated to the main actor like the class: "main actor-isolated default value in a
// nonisolated context". Either the initializer says `nonisolated`, or the key's conformance is
// isolated to the main actor (Swift 6.2 and later).
import Injection

// A `nonisolated init`: the key and the accessor stay as they are.
/// Moves the focus from one step of the guide to the next.
@MainActor
public final class FocusCoordinator {
  /// The step in focus, if any.
  public private(set) var focusedStep: String?

  /// Creates a coordinator with no step in focus, on any thread.
  public nonisolated init() {}  // Before: public init() {}

  /// Focuses `step`.
  public func focus(_ step: String) { focusedStep = step }
}

private struct FocusCoordinatorKey: InjectionKey {
  static let currentValue = FocusCoordinator()
}

extension InjectedValues {
  var focusCoordinator: FocusCoordinator {
    get { self[FocusCoordinatorKey.self] }
    set { self[FocusCoordinatorKey.self] = newValue }
  }
}

// A main-actor key, for an initializer that calls main-actor code. Only main-actor code can use
// the key, so the accessor is `@MainActor` too.
@MainActor
final class GuideController {
  private(set) var steps: [String] = []

  init() { reload() }

  func reload() { steps = ["welcome", "profile"] }
}

// Before:
// struct GuideControllerKey: InjectionKey {
//   @MainActor static var currentValue = GuideController()
// }
private struct GuideControllerKey: @MainActor InjectionKey {
  @MainActor static let currentValue = GuideController()
}

@MainActor
extension InjectedValues {
  var guideController: GuideController {
    get { self[GuideControllerKey.self] }
    set { self[GuideControllerKey.self] = newValue }
  }
}

@MainActor
final class GuideViewModel {
  @Injected(\.guideController) var guideController

  var firstStep: String? { guideController.steps.first }
}

// Off the main actor, code hops there to read the key; `MainActor.run` runs in the same task,
// so it sees the same scope.
func firstGuideStep() async -> String? {
  await MainActor.run { InjectedValues[\.guideController].steps.first }
}

// A `@MainActor static var currentValue` whose class has a nonisolated initializer (here the
// one Swift writes) loses its `@MainActor`. `let` alone still fails: "conformance of
// 'ThemeStoreKey' to protocol 'InjectionKey' crosses into main actor-isolated code and can
// cause data races".
@MainActor
final class ThemeStore {
  private(set) var theme = "light"

  func use(_ theme: String) { self.theme = theme }
}

// Before: @MainActor static var currentValue = ThemeStore()
private struct ThemeStoreKey: InjectionKey {
  static let currentValue = ThemeStore()
}

extension InjectedValues {
  var themeStore: ThemeStore {
    get { self[ThemeStoreKey.self] }
    set { self[ThemeStoreKey.self] = newValue }
  }
}
