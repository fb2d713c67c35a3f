import Injection
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The observer behind ``StrictInjectionTrait``: it records one test issue per key that a
/// strict test reads without an override, and one per global value the test sets.
///
/// Removing global values (`resetGlobal`, `resetAllGlobals`) is not reported: it brings back the
/// defaults, which is how a test cleans up after a global write, and it cannot make a test use a
/// value another test set.
///
/// The core calls it on the thread that reads or writes. Code running for the test case's own
/// task or one of the tasks it starts runs inside `whileRunning(_:)`, which marks the task as
/// this reporter's (a parameterized test's cases share a `Test.current`, so the test's identity
/// is not enough), and the issue is recorded at once: inside `withKnownIssue` if the read is,
/// and attributed to the test case. A read
/// made elsewhere while the test runs (a `Task.detached`, a GCD block, or another test calling a
/// callback bound to this test's values) waits until the test's scope ends and is recorded
/// there, still attributed to this test. A read made after the test has ended is recorded in no
/// test: it prints a warning that names this test instead.
///
/// Every report, issue or warning, goes out through `deliver(_:)`, where this module's own tests
/// catch it with `withReportHandler(_:_:)`.
final class FallbackReporter: InjectionFallbackObserver {
  /// The keys that may fall back without an issue.
  let allowed: Set<ObjectIdentifier>
  private let testName: String
  private let sourceLocation: SourceLocation
  private let state = Locked(State())

  private struct State: Sendable {
    /// The keys already reported (or waiting to be), so each is reported once per test case.
    var reported: Set<ObjectIdentifier> = []
    /// Issues found away from the test's task, to record when the test ends.
    var pending: [String] = []
    /// Whether the test's scope has ended; later fallbacks are recorded where they happen.
    var ended = false
    /// Issues being recorded on the test's tasks right now, which the test's end waits for.
    var recording = 0
  }

  /// One fallback read, as the issue describes it.
  struct Fallback: Sendable {
    let keyName: String
    let isGlobal: Bool
    let readOutsideTest: Bool
  }

  /// One report of strict mode: a test issue, or a warning printed because its test had ended.
  struct Report: Sendable {
    /// The issue's comment, or the whole line of the warning.
    let text: String
    /// The strict test's declaration, where an issue is attributed.
    let sourceLocation: SourceLocation
    /// Whether the report is a printed warning rather than a test issue.
    let isWarning: Bool
  }

  /// Receives the reports made in this task, and the tasks it starts, instead of Swift Testing
  /// and standard output: the hook through which this module's own tests observe strict mode.
  ///
  /// `nil` in every other test, so that issues are recorded and warnings printed.
  @TaskLocal private static var reportHandler: (@Sendable (Report) -> Void)?

  /// Runs `body` with `handler` receiving the reports made in its task and the tasks it starts,
  /// instead of Swift Testing and standard output.
  static func withReportHandler<Result>(
    _ handler: @escaping @Sendable (Report) -> Void,
    _ body: () throws -> Result
  ) rethrows -> Result {
    try $reportHandler.withValue(handler) { try body() }
  }

  /// Runs `body` with `handler` receiving the reports made in its task and the tasks it starts,
  /// instead of Swift Testing and standard output.
  static func withReportHandler<Result>(
    _ handler: @escaping @Sendable (Report) -> Void,
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Result
  ) async rethrows -> Result {
    try await $reportHandler.withValue(handler, operation: body, isolation: isolation)
  }

  convenience init(allowing allowed: Set<ObjectIdentifier>, test: Test) {
    self.init(
      allowing: allowed,
      testName: test.displayName ?? test.name,
      sourceLocation: test.sourceLocation
    )
  }

  /// A reporter for the test named `testName`, declared at `sourceLocation`: for a process with
  /// no current test, such as an exit test's.
  init(allowing allowed: Set<ObjectIdentifier>, testName: String, sourceLocation: SourceLocation) {
    self.allowed = allowed
    self.testName = testName
    self.sourceLocation = sourceLocation
  }

  func keyFellBack(_ key: any InjectionKey.Type, isGlobal: Bool) {
    let id = ObjectIdentifier(key)
    guard !allowed.contains(id) else { return }
    guard state.withLock({ $0.reported.insert(id).inserted }) else { return }
    let onTestTask = isRunningHere
    report(
      Self.message(
        for: Fallback(
          keyName: Self.name(of: key),
          isGlobal: isGlobal,
          readOutsideTest: !onTestTask
        )
      ),
      onTestTask: onTestTask
    )
  }

  func globalValueChanged(_ key: (any InjectionKey.Type)?, removed: Bool) {
    guard let key, !removed else { return }
    report(Self.message(forGlobalWriteOf: Self.name(of: key)), onTestTask: isRunningHere)
  }

  /// The reporter whose test case the current task runs, if any.
  @TaskLocal private static var running: ObjectIdentifier?

  /// Whether the current task runs this reporter's test case (or a task it started).
  var isRunningHere: Bool { Self.running == ObjectIdentifier(self) }

  /// Runs `body`, the test case, as this reporter's: issues found in its tasks are recorded at
  /// once, in the test case.
  func whileRunning(_ body: () async throws -> Void) async throws {
    try await Self.$running.withValue(ObjectIdentifier(self)) { try await body() }
  }

  /// Records `message` now if this is the test's task, when the test ends if it still runs, and
  /// nowhere but in a warning if it has ended.
  private func report(_ message: String, onTestTask: Bool) {
    let now = state.withLock { state -> Bool? in
      if state.ended { return nil }
      if onTestTask {
        state.recording += 1
        return true
      }
      state.pending.append(message)
      return false
    }
    switch now {
    case true?:
      record(message)
      state.withLock { $0.recording -= 1 }
    case false?: break
    case nil: warnAfterEnd(message)
    }
  }

  /// Records the issues found away from the test's task; called when the test's scope ends.
  ///
  /// First it waits for the issues that the test's tasks are recording (a `Task { … }` that the
  /// test did not await may be recording one as the test ends), so that every issue found while
  /// the test ran is recorded before the test's result is.
  func testEnded() {
    while true {
      let pending = state.withLock { state -> [String]? in
        guard state.recording == 0 else { return nil }
        state.ended = true
        defer { state.pending = [] }
        return state.pending
      }
      guard let pending else {
        sched_yield()  // recording an issue takes microseconds
        continue
      }
      for message in pending { record(message) }
      return
    }
  }

  /// The name of `key` that issues show: its type's name with the types around it
  /// (`Payments.Key`), without the module or the private contexts that Swift writes as
  /// `(unknown context at $…)`.
  static func name(of key: any InjectionKey.Type) -> String {
    String(reflecting: key)
      .split(separator: ".", omittingEmptySubsequences: false)
      .dropFirst()  // the module
      .filter { !$0.hasPrefix("(unknown context") }
      .joined(separator: ".")
  }

  private func record(_ message: String) {
    deliver(Report(text: message, sourceLocation: sourceLocation, isWarning: false))
  }

  /// Prints a warning for an issue found after the test ended: recording it would attribute it
  /// to whatever test runs now.
  private func warnAfterEnd(_ message: String) {
    let line =
      "warning: \(message) This happened after the strict test \"\(testName)\" "
      + "(\(sourceLocation.fileID):\(sourceLocation.line)) had ended, through its values "
      + "(for example in a callback bound to them), so it is recorded in no test."
    deliver(Report(text: line, sourceLocation: sourceLocation, isWarning: true))
  }

  /// Hands `report` to this task's `reportHandler` if it has one; otherwise records it as an
  /// issue of the strict test, or prints it.
  private func deliver(_ report: Report) {
    if let handler = Self.reportHandler {
      handler(report)
    } else if report.isWarning {
      print(report.text)
    } else {
      Issue.record(Comment(rawValue: report.text), sourceLocation: report.sourceLocation)
    }
  }

  /// The text of the issue: the key, where its value came from, and how to fix it.
  static func message(for fallback: Fallback) -> String {
    let source: InjectionSource = fallback.isGlobal ? .global : .defaultValue
    var text =
      "Strict injection: \(fallback.keyName) has no override in this test; "
      + "the read fell back to the \(source)."
    if fallback.readOutsideTest {
      text += " It was read outside the test's task, by a detached task or a callback that "
      text += "re-entered the test's values."
    }
    text += " Override it with .injecting { … }, or allow the fallback with "
    text += ".strictInjection(allowing: …)."
    return text
  }

  /// The text of the issue for a global write: the key, and why it matters.
  static func message(forGlobalWriteOf keyName: String) -> String {
    "Strict injection: this test set the global value of \(keyName). The change is visible to "
      + "every test in the process, including tests running in parallel. Override dependencies "
      + "for this test with .injecting { … } or withInjectedValues instead."
  }
}
