import Dispatch
import Testing

@testable import Injection

// Every key here is private to this file: tests elsewhere never see its global values.

private struct EscapeKey: InjectionKey {
  static let currentValue = "default"
}

extension InjectedValues {
  fileprivate var escapeName: String {
    get { self[EscapeKey.self] }
    set { self[EscapeKey.self] = newValue }
  }
}

/// Reads the escaping-callback key through the wrapper.
private struct EscapeReader: Sendable {
  @Injected(\.escapeName) var name
}

/// These tests set a global value for `EscapeKey`, so they run one at a time.
@Suite("Escaping callbacks", .serialized)
struct EscapingCallbackTests {
  @Test("A DispatchQueue block sees the global value, not the override; bind carries the scope")
  func dispatchQueueBlock() async {
    InjectedValues[\.escapeName] = "global"
    defer { removeGlobal(EscapeKey.self) }
    let (plain, bound) = await withInjectedValues {
      $0.escapeName = "scoped"
    } operation: {
      let reader = EscapeReader()
      let boundRead = InjectedValues.current.bind { reader.name }
      return await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
          continuation.resume(returning: (reader.name, boundRead()))
        }
      }
    }
    #expect(plain == "global")
    #expect(bound == "scoped")
  }

  @Test(
    "A stored completion handler resolves where it is called; bound, it keeps its creator's scope"
  )
  func storedCompletionHandler() async {
    let request = await withInjectedValues {
      $0.escapeName = "creator"
    } operation: {
      let reader = EscapeReader()
      return PendingRequest(
        onDone: { status in "\(status) \(reader.name)" },
        onDoneBound: InjectedValues.current.bind { status in "\(status) \(reader.name)" }
      )
    }
    // Called after the creating scope has ended, outside any scope:
    #expect(request.finish(status: 200) == ["200 default", "200 creator"])
    // Called inside another scope: the snapshot replaces that scope's values, it does not
    // merge with them.
    await withInjectedValues {
      $0.escapeName = "caller"
    } operation: {
      #expect(request.finish(status: 201) == ["201 caller", "201 creator"])
    }
    // Called from another thread later on:
    let fromQueue = await withCheckedContinuation { continuation in
      DispatchQueue.global().async { continuation.resume(returning: request.finish(status: 202)) }
    }
    #expect(fromQueue == ["202 default", "202 creator"])
  }

  @Test(
    "Task.detached sees the global value; a snapshot re-entered in it, or a bound closure, sees the scope"
  )
  func detachedTask() async {
    InjectedValues[\.escapeName] = "global"
    defer { removeGlobal(EscapeKey.self) }
    let seen = await withInjectedValues {
      $0.escapeName = "scoped"
    } operation: {
      let reader = EscapeReader()
      let snapshot = InjectedValues.current
      let boundRead = snapshot.bind { reader.name }
      let plain = await Task.detached { reader.name }.value
      let reentered = await Task.detached {
        await withInjectedValues(snapshot) {
          await Task.yield()
          return reader.name
        }
      }.value
      let bound = await Task.detached { boundRead() }.value
      return [plain, reentered, bound]
    }
    #expect(seen == ["global", "scoped", "scoped"])
  }
}

// MARK: - Helpers

/// Stores completion handlers and calls them later, as callback-based APIs do.
private final class PendingRequest: Sendable {
  private let onDone: @Sendable (Int) -> String
  private let onDoneBound: @Sendable (Int) -> String

  init(
    onDone: @escaping @Sendable (Int) -> String,
    onDoneBound: @escaping @Sendable (Int) -> String
  ) {
    self.onDone = onDone
    self.onDoneBound = onDoneBound
  }

  func finish(status: Int) -> [String] { [onDone(status), onDoneBound(status)] }
}

// MARK: - A synchronous closure that throws

private struct NotANumber: Error, Equatable {
  let text: String
}

/// A synchronous function: the bound closures below are called without `await`, so this compiles
/// only if `bind` keeps a synchronous throwing closure synchronous. They are made in a scope and
/// called after it has ended, where `escapeName` is no longer "parser".
private func parseBoundInScope(
  _ texts: [String]
) -> (parsed: [Result<String, any Error>], untyped: Result<String, any Error>) {
  let (parse, untyped) = withInjectedValues {
    $0.escapeName = "parser"
  } operation: {
    (
      InjectedValues.current.bind { (text: String) throws -> String in
        guard let number = Int(text) else { throw NotANumber(text: text) }
        return "\(InjectedValues[\.escapeName]) \(number)"
      },
      InjectedValues.current.bind { () throws -> String in
        throw NotANumber(text: InjectedValues[\.escapeName])
      }
    )
  }
  return (texts.map { text in Result { try parse(text) } }, Result { try untyped() })
}

@Suite("Binding a synchronous closure that throws")
struct BindingAThrowingClosureTests {
  @Test("It runs synchronously with the bound values and rethrows the body's error")
  func errorsPassThrough() throws {
    let (parsed, untyped) = parseBoundInScope(["7", "seven"])
    #expect(try parsed[0].get() == "parser 7")
    #expect(throws: NotANumber(text: "seven")) { try parsed[1].get() }
    #expect(throws: NotANumber(text: "parser")) { try untyped.get() }
  }

  @Test("A closure that does not throw gives a closure that does not throw")
  func nonThrowingStaysNonThrowing() {
    let bound = withInjectedValues {
      $0.escapeName = "plain"
    } operation: {
      InjectedValues.current.bind { InjectedValues[\.escapeName] }
    }
    // `bound` has the type `@Sendable () -> String`: called without `try`.
    let read: @Sendable () -> String = bound
    #expect(read() == "plain")
  }
}
