import Injection
import Testing

@testable import InjectionTesting

/// The reports strict mode made while `capture` ran: the test issues and warnings they would
/// have been, caught through the reporter's hook, so that a passing run records no issue.
final class StrictReportLog: Sendable {
  private let reports = Locked<[FallbackReporter.Report]>([])

  /// Runs `body`, keeping the reports made in its task and the tasks it starts.
  func capture<Result>(_ body: () throws -> Result) rethrows -> Result {
    try FallbackReporter.withReportHandler(keep, body)
  }

  /// Runs `body`, keeping the reports made in its task and the tasks it starts.
  func capture<Result>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Result
  ) async rethrows -> Result {
    try await FallbackReporter.withReportHandler(keep, isolation: isolation, body)
  }

  private var keep: @Sendable (FallbackReporter.Report) -> Void {
    { report in self.reports.withLock { $0.append(report) } }
  }

  private var issues: [FallbackReporter.Report] {
    reports.withLock { $0.filter { !$0.isWarning } }
  }

  /// The first sentence of each issue, in the order they were reported.
  var summaries: [String] { issues.map { Self.firstSentence(of: $0.text) } }

  /// The whole text of each issue.
  var texts: [String] { issues.map(\.text) }

  /// Where each issue is attributed.
  var locations: [SourceLocation] { issues.map(\.sourceLocation) }

  /// The lines strict mode would have printed, for fallbacks after their test had ended.
  var warnings: [String] { reports.withLock { $0.filter(\.isWarning).map(\.text) } }

  /// The text up to the first period that ends a sentence (one followed by a space or the end),
  /// so that a dotted key name such as `Payments.Key` stays whole.
  private static func firstSentence(of text: String) -> String {
    var index = text.startIndex
    while let period = text[index...].firstIndex(of: ".") {
      let next = text.index(after: period)
      if next == text.endIndex || text[next] == " " { return String(text[...period]) }
      index = next
    }
    return text
  }
}
