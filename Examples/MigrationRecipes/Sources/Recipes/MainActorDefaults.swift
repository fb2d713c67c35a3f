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

// A `nonisolated init` may not set a main-actor class's `let` to a value that is not `Sendable`,
// even one it is given: "main actor-isolated property 'dispatcher' can not be mutated from a
// nonisolated context". If the value's class cannot become `Sendable`, the key becomes a
// main-actor key: three edits (the conformance, the `static let`, the accessor) instead of one.

/// Sends analytics events; a class with mutable state and no lock, so not `Sendable`.
final class EventDispatcher {
  private(set) var sent: [String] = []

  func send(_ event: String) { sent.append(event) }
}

@MainActor
final class Analytics {
  let dispatcher: EventDispatcher

  // Before: as it is, with a plain key; `nonisolated` here gives the error above.
  init(dispatcher: EventDispatcher) {
    self.dispatcher = dispatcher
  }

  func track(_ event: String) { dispatcher.send(event) }
}

// Before:
// private struct AnalyticsKey: InjectionKey {
//   static let currentValue = Analytics(dispatcher: EventDispatcher())
// }
private struct AnalyticsKey: @MainActor InjectionKey {
  @MainActor static let currentValue = Analytics(dispatcher: EventDispatcher())
}

// Before: extension InjectedValues {
@MainActor
extension InjectedValues {
  var analytics: Analytics {
    get { self[AnalyticsKey.self] }
    set { self[AnalyticsKey.self] = newValue }
  }
}
