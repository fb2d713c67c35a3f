import Injection
import InjectionTesting
import Testing

private struct FixtureError: Error {}

@Suite("The .injecting trait")
struct InjectingTraitTests {
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
