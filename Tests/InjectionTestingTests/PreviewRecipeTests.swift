import Injection
import InjectionTesting
import Testing

// The recipe of Docs/ComingFromOtherLibraries.md, "Previews": a model made in a preview's scope
// keeps that scope's values for the work the view asks of it later, outside the scope. Here the
// preview's code runs on the main actor, as SwiftUI runs it, and the view's later callbacks are
// main-actor closures started after the scope has returned. The keys are private to this file.

private protocol PreviewAPIClient: Sendable {
  func fetch(_ path: String) -> String
}

private struct LivePreviewAPIClient: PreviewAPIClient {
  func fetch(_ path: String) -> String { "live \(path)" }
}

private struct MockPreviewAPIClient: PreviewAPIClient {
  var name = "mock"
  func fetch(_ path: String) -> String { "\(name) \(path)" }
}

private struct PreviewAPIClientKey: InjectionKey {
  static let currentValue: any PreviewAPIClient = LivePreviewAPIClient()
}

extension InjectedValues {
  fileprivate var previewAPIClient: any PreviewAPIClient {
    get { self[PreviewAPIClientKey.self] }
    set { self[PreviewAPIClientKey.self] = newValue }
  }
}

/// The guide's `CartModel`: it keeps the values of the scope it was made in.
@MainActor
private final class CartModel {
  private let values = InjectedValues.current
  private(set) var items: [String] = []

  /// Called by the view, later: `.onAppear { model.load() }`.
  func load() {
    items = withInjectedValues(merging: values) {
      [InjectedValues[\.previewAPIClient].fetch("/cart")]
    }
  }

  /// The same, for `.task { await model.refresh() }`.
  func refresh() async {
    items = await withInjectedValues(merging: values) {
      await Task.yield()
      return [InjectedValues[\.previewAPIClient].fetch("/cart")]
    }
  }

  /// A child model keeps the same values: it is created inside them.
  func makeCheckoutModel() -> CartModel {
    withInjectedValues(merging: values) { CartModel() }
  }

  /// For `#Preview { CartView(model: .preview()) }`.
  static func preview() -> CartModel {
    withInjectedValues {
      $0.previewAPIClient = MockPreviewAPIClient()
    } operation: {
      CartModel()
    }
  }
}

/// A model without the recipe: `@Injected` resolves where it is read (Rule 5).
@MainActor
private final class PlainCartModel {
  @Injected(\.previewAPIClient) private var apiClient
  private(set) var items: [String] = []

  func load() { items = [apiClient.fetch("/cart")] }

  static func preview() -> PlainCartModel {
    withInjectedValues {
      $0.previewAPIClient = MockPreviewAPIClient()
    } operation: {
      PlainCartModel()
    }
  }
}

@Suite("Recipe: a model made in a preview's scope keeps its values")
struct PreviewRecipeTests {
  @Test("A later main-actor callback, outside any scope, sees the preview's values")
  func laterCallbackSeesThePreviewsValues() async {
    let model = await MainActor.run { CartModel.preview() }  // the preview's code
    let (items, source) = await MainActor.run {  // the view's `.onAppear`, later
      model.load()
      return (model.items, InjectedValues.current.source(of: \.previewAPIClient))
    }
    #expect(source == .defaultValue, "the callback runs outside any scope")
    #expect(items == ["mock /cart"])
  }

  @Test("A main-actor task started after the scope, and an async load, see them too")
  func laterTaskSeesThePreviewsValues() async {
    let model = await MainActor.run { CartModel.preview() }
    let items = await Task { @MainActor in
      await model.refresh()
      return model.items
    }.value
    #expect(items == ["mock /cart"])
  }

  @Test("A child model made later inherits the preview's values")
  func childModelInherits() async {
    let model = await MainActor.run { CartModel.preview() }
    let items = await MainActor.run {
      let checkout = model.makeCheckoutModel()
      checkout.load()
      return checkout.items
    }
    #expect(items == ["mock /cart"])
  }

  @Test("Without the recipe, the later callback sees the values around it, not the preview's")
  func withoutTheRecipe() async {
    let model = await MainActor.run { PlainCartModel.preview() }
    let items = await MainActor.run {
      model.load()
      return model.items
    }
    #expect(items == ["live /cart"])
  }

  @Test(
    "A caller's override still wins, as in a test that drives the preview's model",
    .injecting { $0.previewAPIClient = MockPreviewAPIClient(name: "test") }
  )
  func callersOverrideWins() async {
    let model = await MainActor.run { CartModel.preview() }
    let items = await MainActor.run {
      model.load()
      return model.items
    }
    #expect(items == ["test /cart"])
  }
}
