// A service that belongs to the main actor, created once as its key's default, and read by
// main-actor code. In this module it needs no annotation; the accessor says `@MainActor` for the
// test targets, which are other modules (see ThemeStore.swift).
import Injection

/// Which step of a guide has the focus: UI state, used on the main actor only.
final class FocusCoordinator {
  private(set) var focusedStep: String?

  init(focusedStep: String? = nil) {
    self.focusedStep = focusedStep
  }

  func focus(_ step: String) {
    focusedStep = step
  }
}

// Isolated to the main actor by default, and `InferIsolatedConformances` makes its conformance
// `@MainActor InjectionKey`: so the `static let` may call the main-actor `init`, and only
// main-actor code can read the key. The default is created once, on the first read.
private struct FocusCoordinatorKey: InjectionKey {
  static let currentValue = FocusCoordinator()
}

@MainActor
extension InjectedValues {
  var focusCoordinator: FocusCoordinator {
    get { self[FocusCoordinatorKey.self] }
    set { self[FocusCoordinatorKey.self] = newValue }
  }
}
