import Injection
import InjectionTesting
import Testing

@Suite("Strict mode")
struct StrictInjectionTests {
  @Test("Each key that falls back to its default is reported once, by name", .strictInjection)
  func defaultFallbacksAreReportedOnce() {
    let log = StrictIssueLog()
    withKnownIssue {
      _ = InjectedValues[\.count]
      _ = InjectedValues[\.count]
      _ = Greeter().greet("Ada")
      _ = Greeter().greet("Grace")
    } matching: {
      log.matches($0)
    }
    #expect(
      log.summaries == [
        fellBack("CountKey", to: .defaultValue), fellBack("GreetingKey", to: .defaultValue),
      ]
    )
  }

  @Test("The issue says when the value came from the global value", .strictInjection)
  func globalFallbackIsNamed() {
    let log = StrictIssueLog()
    withKnownIssue {
      InjectedValues[\.strictGlobal] = 9
      #expect(InjectedValues[\.strictGlobal] == 9)
    } matching: {
      log.matches($0)
    }
    #expect(
      log.summaries == [setGlobally("StrictGlobalKey"), fellBack("StrictGlobalKey", to: .global)]
    )
  }

  @Test("The issue tells how to fix it and is attributed to the test", .strictInjection)
  func issueTextAndLocation() {
    let log = StrictIssueLog()
    withKnownIssue {
      _ = InjectedValues[\.name]
    } matching: {
      log.matches($0)
    }
    #expect(
      log.texts == [
        fellBack("NameKey", to: .defaultValue)
          + " Override it with .injecting { … }, or allow the fallback with "
          + ".strictInjection(allowing: …)."
      ]
    )
    #expect(log.locations == [Test.current!.sourceLocation])
  }

  @Test(
    "Overridden and allowed keys are not reported",
    .strictInjection(allowing: \.clock, \.shoutedName),
    .injecting { $0.greeting = MockGreeting(word: "Hi") }
  )
  func overriddenAndAllowedKeysAreSilent() {
    let log = StrictIssueLog()
    withKnownIssue {
      #expect(Greeter().greet("Ada") == "Hi, Ada")  // overridden
      #expect(InjectedValues[\.clock].now() == 1_000)  // allowed
      #expect(InjectedValues[\.name] == "default")  // allowed through the view \.shoutedName
      _ = InjectedValues[\.count]  // neither
    } matching: {
      log.matches($0)
    }
    #expect(log.summaries == [fellBack("CountKey", to: .defaultValue)])
  }

  @Test(
    "Keys can be allowed by type",
    .strictInjection(allowingKeys: ClockKey.self, LoggerKey.self)
  )
  func keysAllowedByType() {
    let log = StrictIssueLog()
    withKnownIssue {
      _ = InjectedValues[ClockKey.self]
      _ = InjectedValues[\.logger]
      _ = InjectedValues[\.count]
    } matching: {
      log.matches($0)
    }
    #expect(log.summaries == [fellBack("CountKey", to: .defaultValue)])
  }

  @Test("Fallbacks in child tasks are reported", .strictInjection)
  func childTaskFallbacksAreReported() async {
    let log = StrictIssueLog()
    await withKnownIssue {
      await withTaskGroup(of: Void.self) { group in
        group.addTask { _ = InjectedValues[\.count] }
        group.addTask { _ = InjectedValues[\.count] }
      }
      async let name = InjectedValues[\.name]
      _ = await name
      await Task { _ = InjectedValues[\.clock] }.value
    } matching: {
      log.matches($0)
    }
    #expect(
      Set(log.summaries) == [
        fellBack("CountKey", to: .defaultValue), fellBack("NameKey", to: .defaultValue),
        fellBack("ClockKey", to: .defaultValue),
      ]
    )
    #expect(log.summaries.count == 3)
  }

  @Test("Scopes opened inside a strict test stay strict", .strictInjection)
  func nestedScopesStayStrict() {
    let log = StrictIssueLog()
    withKnownIssue {
      withInjectedValues {
        $0.count = 1
      } operation: {
        #expect(InjectedValues[\.count] == 1)
        _ = InjectedValues[\.name]
      }
    } matching: {
      log.matches($0)
    }
    #expect(log.summaries == [fellBack("NameKey", to: .defaultValue)])
  }

  @Test(
    "Strict mode before .injecting: reads in the update closure are not reported",
    .strictInjection,
    .injecting { $0.count = $0.count + 1 }
  )
  func strictThenInjecting() {
    let log = StrictIssueLog()
    withKnownIssue {
      #expect(InjectedValues[\.count] == 1)
      _ = InjectedValues[\.name]
    } matching: {
      log.matches($0)
    }
    #expect(log.summaries == [fellBack("NameKey", to: .defaultValue)])
  }

  @Test(
    "Strict mode after .injecting: overrides are in effect, fallbacks are reported",
    .injecting { $0.count = 2 },
    .strictInjection
  )
  func injectingThenStrict() {
    let log = StrictIssueLog()
    withKnownIssue {
      #expect(InjectedValues[\.count] == 2)
      _ = InjectedValues[\.name]
    } matching: {
      log.matches($0)
    }
    #expect(log.summaries == [fellBack("NameKey", to: .defaultValue)])
  }

  @Test(
    "An update closure that replaces $0 with a snapshot keeps strict mode",
    .strictInjection,
    .injecting { $0 = InjectedValues.current }
  )
  func snapshotAssignmentKeepsStrictMode() {
    let log = StrictIssueLog()
    withKnownIssue {
      _ = InjectedValues[\.name]
    } matching: {
      log.matches($0)
    }
    #expect(log.summaries == [fellBack("NameKey", to: .defaultValue)])
  }

  @Test(
    "Each test case of a parameterized test reports its own fallbacks",
    .strictInjection,
    arguments: 0..<4
  )
  func eachCaseReports(argument: Int) {
    let log = StrictIssueLog()
    withKnownIssue {
      _ = InjectedValues[\.count]
    } matching: {
      log.matches($0)
    }
    #expect(log.summaries == [fellBack("CountKey", to: .defaultValue)])
  }

  @Test("A fallback read away from the test's task is reported when the scope ends")
  func detachedFallbackIsReportedAtTheEnd() async throws {
    let log = StrictIssueLog()
    let trait: StrictInjectionTrait = .strictInjection
    try await withKnownIssue {
      try await trait.provideScope(for: Test.current!, testCase: Test.Case.current) {
        let values = InjectedValues.current
        await Task.detached {
          withInjectedValues(values) { _ = InjectedValues[\.count] }
        }.value
        #expect(log.texts.isEmpty)
      }
    } matching: {
      log.matches($0)
    }
    #expect(log.summaries == [fellBack("CountKey", to: .defaultValue)])
    #expect(log.texts.first?.contains("read outside the test's task") == true)
    #expect(log.locations == [Test.current!.sourceLocation])
  }

  @Test("Outside strict mode, fallbacks are not reported")
  func withoutStrictModeNothingIsReported() async throws {
    let log = StrictIssueLog()
    let strict: StrictInjectionTrait = .strictInjection
    // The same reads, first without strict mode, then with it: only the second is reported.
    _ = InjectedValues[\.count]
    try await withKnownIssue {
      try await strict.provideScope(for: Test.current!, testCase: Test.Case.current) {
        _ = InjectedValues[\.count]
      }
    } matching: {
      log.matches($0)
    }
    _ = InjectedValues[\.count]
    #expect(log.summaries == [fellBack("CountKey", to: .defaultValue)])
  }
}

@Suite("Strict mode on suites", .strictInjection(allowing: \.clock))
struct StrictInjectionSuiteTests {
  @Test("A test's allow-list adds to its suite's", .strictInjection(allowing: \.logger))
  func allowListsCombine() {
    let log = StrictIssueLog()
    withKnownIssue {
      _ = InjectedValues[\.clock]
      _ = InjectedValues[\.logger]
      _ = InjectedValues[\.count]
    } matching: {
      log.matches($0)
    }
    #expect(log.summaries == [fellBack("CountKey", to: .defaultValue)])
  }

  @Suite("A nested suite")
  struct Nested {
    @Test("Nested suites are strict too, with the outer allow-list")
    func nestedSuitesAreStrict() {
      let log = StrictIssueLog()
      withKnownIssue {
        _ = InjectedValues[\.clock]
        _ = InjectedValues[\.logger]
      } matching: {
        log.matches($0)
      }
      #expect(log.summaries == [fellBack("LoggerKey", to: .defaultValue)])
    }
  }
}
