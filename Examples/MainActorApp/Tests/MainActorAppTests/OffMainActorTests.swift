import Injection
import Testing

@testable import MainActorApp

/// Conforms to a `nonisolated` protocol refining `Sendable`, so it is nonisolated too.
struct ShoutingRenderer: ReportRenderer {
  func render(_ entries: [String]) -> String {
    entries.joined(separator: ", ").uppercased()
  }
}

@Suite("A dependency read off the main actor")
struct OffMainActorTests {
  @Test("A @concurrent function sees the default, then its caller's scope")
  func concurrentFunctionSeesTheScope() async {
    #expect(await exportReport(["a", "b"]) == "- a\n- b")
    let report = await withInjectedValues {
      $0.reportRenderer = ShoutingRenderer()
      $0.toastCenter = ToastCenter()
    } operation: {
      await exportReport(["a", "b"])
    }
    #expect(report == "A, B")
  }

  @Test("A detached task sees the default, unless it re-enters a snapshot")
  func detachedTask() async {
    await withInjectedValues {
      $0.reportRenderer = ShoutingRenderer()
    } operation: {
      let unscoped = await Task.detached {
        InjectedValues[\.reportRenderer].render(["a"])
      }.value
      let values = InjectedValues.current
      let scoped = await Task.detached {
        withInjectedValues(values) { InjectedValues[\.reportRenderer].render(["a"]) }
      }.value
      #expect(unscoped == "- a")
      #expect(scoped == "A")
    }
  }

  @Test("A nonisolated type reads it on any thread")
  func nonisolatedType() async {
    let archived = await Task.detached {
      withInjectedValues {
        $0.reportRenderer = ShoutingRenderer()
      } operation: {
        ReportArchive().archive(["a"])
      }
    }.value
    #expect(archived == "archived:\nA")
  }
}
