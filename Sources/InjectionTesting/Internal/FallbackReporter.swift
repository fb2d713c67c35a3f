import Injection
import Testing

/// The observer behind ``StrictInjectionTrait``: it records one test issue per key that a
/// strict test reads without an override.
///
/// The core calls ``keyFellBack(_:isGlobal:)`` on the thread that reads, before it produces the
/// fallback. On that thread, a read made by the test's own task or one of its child tasks sees
/// the test as `Test.current`, so the issue is recorded at once: inside `withKnownIssue` if the
/// read is, and attributed to the test. A read made elsewhere (a `Task.detached` or a GCD block
/// that re-entered a snapshot of the test's values) has no current test; its issue waits until
/// the test's scope ends and is recorded there, still attributed to the test.
final class FallbackReporter: InjectionFallbackObserver {
  /// The keys that may fall back without an issue.
  let allowed: Set<ObjectIdentifier>
  private let testID: Test.ID
  private let sourceLocation: SourceLocation
  private let state = Locked(State())

  private struct State: Sendable {
    /// The keys already reported (or waiting to be), so each is reported once per test case.
    var reported: Set<ObjectIdentifier> = []
    /// Fallbacks read away from the test's task, to record when the test ends.
    var pending: [Fallback] = []
    /// Whether the test's scope has ended; later fallbacks are recorded where they happen.
    var ended = false
  }

  /// One fallback read, as the issue describes it.
  struct Fallback: Sendable {
    let keyName: String
    let isGlobal: Bool
    let readOutsideTest: Bool
  }

  init(allowing allowed: Set<ObjectIdentifier>, test: Test) {
    self.allowed = allowed
    self.testID = test.id
    self.sourceLocation = test.sourceLocation
  }

  func keyFellBack(_ key: any InjectionKey.Type, isGlobal: Bool) {
    let id = ObjectIdentifier(key)
    guard !allowed.contains(id) else { return }
    guard state.withLock({ $0.reported.insert(id).inserted }) else { return }

    let onTestTask = Test.current?.id == testID
    let fallback = Fallback(
      keyName: String(describing: key),
      isGlobal: isGlobal,
      readOutsideTest: !onTestTask
    )
    let recordNow =
      onTestTask
      || state.withLock { state in
        if state.ended { return true }
        state.pending.append(fallback)
        return false
      }
    if recordNow { record(fallback) }
  }

  /// Records the fallbacks read away from the test's task; called when the test's scope ends.
  func testEnded() {
    let pending = state.withLock { state in
      state.ended = true
      defer { state.pending = [] }
      return state.pending
    }
    for fallback in pending { record(fallback) }
  }

  private func record(_ fallback: Fallback) {
    Issue.record(Comment(rawValue: Self.message(for: fallback)), sourceLocation: sourceLocation)
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
}
