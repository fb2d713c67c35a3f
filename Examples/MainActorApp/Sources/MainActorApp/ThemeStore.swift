// Main-actor services with main-actor initializers, as every class of this module has unless it
// says otherwise. Tests build their mocks with those initializers, in `.injecting` and in
// `InjectedTestCase.injectValues(_:)`, as written.
//
// The accessors say `@MainActor` although the module's default says it already: the default
// holds inside this module only, and the test targets are other modules. Written out, the
// isolation holds there too, so a test cannot read them off the main actor without `await`.
import Injection

/// The app's colour theme: UI state, used on the main actor only.
final class ThemeStore {
  private(set) var theme: String

  init(theme: String) {
    self.theme = theme
  }

  func toggle() {
    theme = theme == "dark" ? "light" : "dark"
  }
}

private struct ThemeStoreKey: InjectionKey {
  static let currentValue = ThemeStore(theme: "dark")
}

/// The number on the cart's tab-bar badge.
final class CartBadge {
  private(set) var count: Int

  init(count: Int) {
    self.count = count
  }

  func add() {
    count += 1
  }
}

private struct CartBadgeKey: InjectionKey {
  static let currentValue = CartBadge(count: 0)
}

@MainActor
extension InjectedValues {
  var themeStore: ThemeStore {
    get { self[ThemeStoreKey.self] }
    set { self[ThemeStoreKey.self] = newValue }
  }

  var cartBadge: CartBadge {
    get { self[CartBadgeKey.self] }
    set { self[CartBadgeKey.self] = newValue }
  }
}

/// A screen that reads both.
struct CartScreen {
  @Injected(\.themeStore) var themeStore
  @Injected(\.cartBadge) var cartBadge

  func title() -> String { "Cart (\(cartBadge.count)), \(themeStore.theme)" }
}
