import Testing

@testable import Injection

// `bind` for asynchronous closures, and that synchronous closures keep the synchronous overload.

private struct BindKey: InjectionKey {
  static let currentValue = "default"
}

extension InjectedValues {
  fileprivate var bindName: String {
    get { self[BindKey.self] }
    set { self[BindKey.self] = newValue }
  }
}

private struct BindFailure: Error, Equatable {
  let name: String
}

@Suite("Asynchronous bind")
struct AsyncBindTests {
  @Test("A bound async closure with an argument runs with the binding scope in a detached task")
  func asyncClosureWithArgument() async {
    let bound = await withInjectedValues {
      $0.bindName = "bound"
    } operation: {
      InjectedValues.current.bind { (suffix: String) async in
        await Task.yield()
        return InjectedValues[\.bindName] + suffix
      }
    }
    #expect(await Task.detached { await bound("!") }.value == "bound!")
    let inOtherScope = await withInjectedValues {
      $0.bindName = "caller"
    } operation: {
      () async in
      await bound("?")
    }
    #expect(inOtherScope == "bound?")
  }

  @Test("A bound async closure feeds AsyncStream(unfolding:), whose closure escapes the scope")
  func asyncStreamUnfolding() async {
    let stream = await withInjectedValues {
      $0.bindName = "stream"
    } operation: {
      AsyncStream<String>(
        unfolding: InjectedValues.current.bind { () async -> String? in InjectedValues[\.bindName] }
      )
    }
    var seen: [String] = []
    for await name in stream.prefix(2) { seen.append(name) }
    #expect(seen == ["stream", "stream"])
  }

  @Test("A bound throwing async closure rethrows its error, and the scope ends when it throws")
  func throwingAsyncClosure() async {
    let (bound, withArgument) = await withInjectedValues {
      $0.bindName = "thrower"
    } operation: {
      (
        InjectedValues.current.bind { () async throws -> Int in
          throw BindFailure(name: InjectedValues[\.bindName])
        },
        InjectedValues.current.bind { (suffix: String) async throws -> Int in
          throw BindFailure(name: InjectedValues[\.bindName] + suffix)
        }
      )
    }
    await #expect(throws: BindFailure(name: "thrower")) { try await bound() }
    await #expect(throws: BindFailure(name: "thrower!")) { try await withArgument("!") }
    #expect(InjectedValues[\.bindName] == "default")
  }

  @Test("A synchronous closure still picks the synchronous overload and runs without await")
  func synchronousClosurePicksSynchronousOverload() {
    let values = withInjectedValues {
      $0.bindName = "sync"
    } operation: {
      InjectedValues.current
    }
    let noArgument = values.bind { InjectedValues[\.bindName] }
    let withArgument = values.bind { (n: Int) in "\(InjectedValues[\.bindName]) \(n)" }
    // Called without `await`: this compiles only if both are the synchronous overloads.
    #expect(noArgument() == "sync")
    #expect(withArgument(2) == "sync 2")
    let typed: @Sendable () -> String = noArgument
    #expect(typed() == "sync")
  }
}
