// A dependency read off the main actor. Code that reads it there needs the protocol, the key and
// the accessor to be `nonisolated`; in this module each would otherwise belong to the main actor.
import Injection

/// Turns entries into a report. Rendering is slow, so it runs off the main actor.
nonisolated protocol ReportRenderer: Sendable {
  func render(_ entries: [String]) -> String
}

// A type that conforms, where it is declared, to a `nonisolated` protocol refining `Sendable`
// is nonisolated too. The attribute says so where a reader looks for it.
nonisolated struct PlainTextRenderer: ReportRenderer {
  func render(_ entries: [String]) -> String {
    entries.map { "- \($0)" }.joined(separator: "\n")
  }
}

nonisolated private struct ReportRendererKey: InjectionKey {
  static let currentValue: any ReportRenderer = PlainTextRenderer()
}

nonisolated extension InjectedValues {
  var reportRenderer: any ReportRenderer {
    get { self[ReportRendererKey.self] }
    set { self[ReportRendererKey.self] = newValue }
  }
}

/// Renders a report off the main actor, then tells the user on the main actor.
///
/// `@concurrent` runs it on the global executor, in the caller's task: it sees the caller's
/// scope, like every function the caller awaits.
@concurrent
func exportReport(_ entries: [String]) async -> String {
  let report = InjectedValues[\.reportRenderer].render(entries)
  await InjectedValues[\.toastCenter].show("Report exported")
  return report
}

/// A type whose methods run on any thread.
///
/// `@Injected` cannot be used in a `nonisolated` type: the compiler would make its storage
/// `nonisolated`, which it rejects for a property wrapper ("'nonisolated' cannot be applied to
/// mutable stored properties"). A computed property reads the dependency just as well.
nonisolated struct ReportArchive {
  var renderer: any ReportRenderer { InjectedValues[\.reportRenderer] }

  func archive(_ entries: [String]) -> String {
    "archived:\n" + renderer.render(entries)
  }
}
