import Injection
import InjectionTesting
import Testing

private struct FixtureError: Error {}

/// A store opened per test on first use, counted.
private final class Store: Sendable {
  private let closed = Locked(false)
  func close() { closed.withLock { $0 = true } }
  var isClosed: Bool { closed.withLock { $0 } }
}

private struct StoreKey: InjectionKey {
  static let currentValue = Store()
}

extension InjectedValues {
  fileprivate var store: Store {
    get { self[StoreKey.self] }
    set { self[StoreKey.self] = newValue }
  }
}

/// A trait that declares a store built on first use and closed after the test; `opened` counts
/// the stores it builds.
private func lazyStore(opened: Locked<Int> = Locked(0)) -> InjectingTrait {
  .injecting {
    $0.lazy(\.store) {
      opened.withLock { $0 += 1 }
      return Store()
    } teardown: { store in
      await Task.yield()
      store.close()
    }
  }
}

@Suite("The .injecting trait")
struct InjectingTraitTests {
  @Test("A value declared with lazy is built on first use and torn down before the trait returns")
  func lazyValueLifetime() async throws {
    let opened = Locked(0)
    let trait = lazyStore(opened: opened)
    let first = try await run(in: trait) { InjectedValues[\.store] }
    let second = try await run(in: trait) { InjectedValues[\.store] }
    #expect(first !== second, "every test case builds its own")
    #expect(first.isClosed && second.isClosed, "each was torn down when its scope ended")
    try await run(in: trait) { _ = InjectedValues[\.count] }
    #expect(opened.withLock { $0 } == 2, "a test that never reads it builds none")
  }

  @Test("A value built in a test that throws is torn down, and the error reaches the test")
  func lazyValueTornDownWhenTheTestThrows() async {
    let opened = Locked(0)
    let built = Locked<Store?>(nil)
    await #expect(throws: FixtureError.self) {
      try await lazyStore(opened: opened).provideScope(
        for: Test.current!,
        testCase: Test.Case.current
      ) {
        built.withLock { $0 = InjectedValues[\.store] }
        throw FixtureError()
      }
    }
    #expect(opened.withLock { $0 } == 1)
    #expect(built.withLock { $0 }?.isClosed == true)
  }

  @Test(
    "A value declared with lazy counts as an override in strict mode",
    .strictInjection,
    lazyStore()
  )
  func lazyValueIsAnOverrideInStrictMode() {
    #expect(!InjectedValues[\.store].isClosed)
  }

  /// Runs `body` in `trait`'s scope, the way the testing library runs a test.
  private func run<Result: Sendable>(
    in trait: InjectingTrait,
    _ body: @escaping @Sendable () -> Result
  ) async throws -> Result {
    let result = Locked<Result?>(nil)
    try await trait.provideScope(for: Test.current!, testCase: Test.Case.current) {
      result.withLock { $0 = body() }
    }
    return result.withLock { $0! }
  }

  @Test(
    "Reads in the trait's update closure see the values being built, in both accessor styles",
    .injecting { values in
      values.name = "built"
      await Task.yield()
      values.seedName = "seed-style, built"
      #expect(values.seedName == "seed-style, built")
      #expect(InjectedValues[\.seedName] == "seed-style, built")
      #expect(InjectedValues[\.name] == "built")
      #expect(InjectedValues.current.name == "built")
      #expect(
        Greeter().greet("Ada") == "Hello, Ada",
        "a key not set yet shows the enclosing values"
      )
    }
  )
  func updateClosureSeesValuesBeingBuilt() {
    #expect(InjectedValues[\.name] == "built")
    #expect(InjectedValues[\.seedName] == "seed-style, built")
  }

  @Test("On a test, the body sees the overrides", .injecting { $0.count = 7 })
  func testTraitOverrides() {
    #expect(InjectedValues[\.count] == 7)
    #expect(InjectedValues[\.name] == NameKey.currentValue)
  }

  @Test(
    "Code under test reads the mock through @Injected",
    .injecting { $0.greeting = MockGreeting(word: "Hi") }
  )
  func injectedWrapperSeesTheMock() {
    #expect(Greeter().greet("Ada") == "Hi, Ada")
  }

  @Test(
    "Seed-style accessors are overridden in the trait's scope",
    .injecting { $0.seedName = "x" }
  )
  func seedStyleAccessor() {
    #expect(InjectedValues[\.seedName] == "x")
  }

  @Test(
    "An async, throwing update closure runs before the body",
    .injecting { $0.count = try await loadFixtureCount() }
  )
  func asyncUpdate() {
    #expect(InjectedValues[\.count] == 42)
  }

  @Test(
    "A seed-style accessor written after a suspension in the update still scopes",
    .injecting {
      await Task.yield()
      $0.seedName = "after suspension"
    }
  )
  func seedStyleAfterSuspension() {
    #expect(InjectedValues[\.seedName] == "after suspension")
  }

  @Test(
    "Traits on one test apply in order",
    .injecting { $0.count = 1 },
    .injecting { $0.count *= 10 }
  )
  func traitsApplyInOrder() {
    #expect(InjectedValues[\.count] == 10)
  }

  @Test("Child tasks, async let and Task {} inherit the trait's scope", .injecting { $0.count = 3 })
  func childTasksInherit() async {
    async let fromAsyncLet = InjectedValues[\.count]
    let fromTask = await Task { InjectedValues[\.count] }.value
    let fromGroup = await withTaskGroup(of: Int.self) { group in
      group.addTask { InjectedValues[\.count] }
      return await group.next()!
    }
    let fromDetached = await Task.detached { InjectedValues[\.count] }.value
    #expect(await fromAsyncLet == 3)
    #expect(fromTask == 3)
    #expect(fromGroup == 3)
    #expect(fromDetached == CountKey.currentValue)
  }

  @Test(
    "The update closure runs again for each test case, with fresh mocks",
    .injecting { $0.tally = Tally() },
    arguments: 0..<8
  )
  func freshMocksPerCase(argument: Int) {
    #expect(InjectedValues[\.tally] !== TallyKey.currentValue)
    #expect(InjectedValues[\.tally].claim(by: argument) == [argument])
  }

  @Test("A throwing update closure fails the test case and the body does not run")
  func throwingUpdateSkipsTheBody() async throws {
    let trait: InjectingTrait = .injecting { _ in throw FixtureError() }
    let ran = Tally()
    await #expect(throws: FixtureError.self) {
      try await trait.provideScope(for: Test.current!, testCase: Test.Case.current) {
        ran.claim(by: 1)
      }
    }
    #expect(ran.owners.isEmpty)
  }

  @Test("The scope ends with the test case")
  func scopeEndsWithTheCase() async throws {
    let trait: InjectingTrait = .injecting { $0.count = 5 }
    try await trait.provideScope(for: Test.current!, testCase: Test.Case.current) {
      #expect(InjectedValues[\.count] == 5)
    }
    #expect(InjectedValues[\.count] == CountKey.currentValue)
  }
}

@Suite(
  "The .injecting trait on suites",
  .injecting {
    $0.count = 1; $0.name = "suite"
  }
)
struct InjectingSuiteTraitTests {
  let countSeenByInit = InjectedValues[\.count]

  @Test("Every test of the suite sees the suite's overrides")
  func suiteTraitApplies() {
    #expect(InjectedValues[\.count] == 1)
    #expect(InjectedValues[\.name] == "suite")
  }

  @Test("The suite's instance is created inside the scope")
  func suiteInitSeesTheScope() {
    #expect(countSeenByInit == 1)
  }

  @Test("The suite's update runs first, then the test's", .injecting { $0.count += 1 })
  func suiteUpdateRunsFirst() {
    #expect(InjectedValues[\.count] == 2)
    #expect(InjectedValues[\.name] == "suite")
  }

  @Test("A test's override shadows the suite's for that test only", .injecting { $0.name = "test" })
  func testOverrideShadowsSuite() {
    #expect(InjectedValues[\.name] == "test")
    #expect(InjectedValues[\.count] == 1)
  }

  @Suite("A nested suite", .injecting { $0.count *= 100 })
  struct Nested {
    @Test("Nested suites inherit the outer suite's trait, outer update first")
    func nestedSuiteInherits() {
      #expect(InjectedValues[\.count] == 100)
      #expect(InjectedValues[\.name] == "suite")
    }

    @Test("Tests of nested suites can add their own trait", .injecting { $0.count += 5 })
    func nestedTestAddsItsOwn() {
      #expect(InjectedValues[\.count] == 105)
    }
  }
}
