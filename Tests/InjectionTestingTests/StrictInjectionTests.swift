import Testing

@testable import Injection
@testable import InjectionTesting

// Keys that the tests of global writes set globally, one per test; no other test reads them.
/// Two keys with the same name, nested in different types, as an app's features declare them.
private enum Payments {
  struct Key: InjectionKey { static let currentValue = "live payments" }
}

private enum Shipping {
  struct Key: InjectionKey { static let currentValue = "live shipping" }
}

private struct GlobalWriteKey: InjectionKey {
  static let currentValue = "default"
}

private struct WrapperWriteKey: InjectionKey {
  static let currentValue = "default"
}

private struct TypeWriteKey: InjectionKey {
  static let currentValue = "default"
}

private struct ResetWriteKey: InjectionKey {
  static let currentValue = "default"
}

private struct ChildTaskWriteKey: InjectionKey {
  static let currentValue = "default"
}

/// A default that reads another key while it is created.
private struct DerivedDefaultKey: InjectionKey {
  static let currentValue = "derived from \(InjectedValues[\.name])"
}

extension InjectedValues {
  fileprivate var globalWrite: String {
    get { self[GlobalWriteKey.self] }
    set { self[GlobalWriteKey.self] = newValue }
  }

  fileprivate var wrapperWrite: String {
    get { self[WrapperWriteKey.self] }
    set { self[WrapperWriteKey.self] = newValue }
  }

  fileprivate var typeWrite: String {
    get { Self[TypeWriteKey.self] }
    set { Self[TypeWriteKey.self] = newValue }
  }

  fileprivate var childTaskWrite: String {
    get { self[ChildTaskWriteKey.self] }
    set { self[ChildTaskWriteKey.self] = newValue }
  }

  fileprivate var resetWrite: String {
    get { self[ResetWriteKey.self] }
    set { self[ResetWriteKey.self] = newValue }
  }
}

private struct WrapperWriter {
  @Injected(\.wrapperWrite) var value
}

@Suite("Strict mode")
struct StrictInjectionTests {
  @Test("Each key that falls back to its default is reported once, by name", .strictInjection)
  func defaultFallbacksAreReportedOnce() {
    let log = StrictReportLog()
    log.capture {
      _ = InjectedValues[\.count]
      _ = InjectedValues[\.count]
      _ = Greeter().greet("Ada")
      _ = Greeter().greet("Grace")
    }
    #expect(
      log.summaries == [
        fellBack("CountKey", to: .defaultValue), fellBack("GreetingKey", to: .defaultValue),
      ]
    )
  }

  @Test("A nested key is named with the types around it", .strictInjection)
  func nestedKeysAreNamedWithTheirContext() {
    let log = StrictReportLog()
    log.capture {
      _ = InjectedValues[Payments.Key.self]
      _ = InjectedValues[Shipping.Key.self]
    }
    #expect(
      log.summaries == [
        fellBack("Payments.Key", to: .defaultValue), fellBack("Shipping.Key", to: .defaultValue),
      ]
    )
  }

  @Test("The issue says when the value came from the global value", .strictInjection)
  func globalFallbackIsNamed() {
    let log = StrictReportLog()
    log.capture {
      InjectedValues[\.strictGlobal] = 9
      #expect(InjectedValues[\.strictGlobal] == 9)
    }
    #expect(
      log.summaries == [setGlobally("StrictGlobalKey"), fellBack("StrictGlobalKey", to: .global)]
    )
  }

  @Test("The issue tells how to fix it and is attributed to the test", .strictInjection)
  func issueTextAndLocation() {
    let log = StrictReportLog()
    log.capture {
      _ = InjectedValues[\.name]
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
    let log = StrictReportLog()
    log.capture {
      #expect(Greeter().greet("Ada") == "Hi, Ada")  // overridden
      #expect(InjectedValues[\.clock].now() == 1_000)  // allowed
      #expect(InjectedValues[\.name] == "default")  // allowed through the view \.shoutedName
      _ = InjectedValues[\.count]  // neither
    }
    #expect(log.summaries == [fellBack("CountKey", to: .defaultValue)])
  }

  @Test(
    "Keys can be allowed by type",
    .strictInjection(allowingKeys: ClockKey.self, LoggerKey.self)
  )
  func keysAllowedByType() {
    let log = StrictReportLog()
    log.capture {
      _ = InjectedValues[ClockKey.self]
      _ = InjectedValues[\.logger]
      _ = InjectedValues[\.count]
    }
    #expect(log.summaries == [fellBack("CountKey", to: .defaultValue)])
  }

  @Test("Fallbacks in child tasks are reported", .strictInjection)
  func childTaskFallbacksAreReported() async {
    let log = StrictReportLog()
    await log.capture {
      await withTaskGroup(of: Void.self) { group in
        group.addTask { _ = InjectedValues[\.count] }
        group.addTask { _ = InjectedValues[\.count] }
      }
      async let name = InjectedValues[\.name]
      _ = await name
      await Task { _ = InjectedValues[\.clock] }.value
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
    let log = StrictReportLog()
    log.capture {
      withInjectedValues {
        $0.count = 1
      } operation: {
        #expect(InjectedValues[\.count] == 1)
        _ = InjectedValues[\.name]
      }
    }
    #expect(log.summaries == [fellBack("NameKey", to: .defaultValue)])
  }

  @Test(
    "Strict mode before .injecting: reads in the update closure are not reported",
    .strictInjection,
    .injecting { $0.count = $0.count + 1 }
  )
  func strictThenInjecting() {
    let log = StrictReportLog()
    log.capture {
      #expect(InjectedValues[\.count] == 1)
      _ = InjectedValues[\.name]
    }
    #expect(log.summaries == [fellBack("NameKey", to: .defaultValue)])
  }

  @Test(
    "Strict mode after .injecting: overrides are in effect, fallbacks are reported",
    .injecting { $0.count = 2 },
    .strictInjection
  )
  func injectingThenStrict() {
    let log = StrictReportLog()
    log.capture {
      #expect(InjectedValues[\.count] == 2)
      _ = InjectedValues[\.name]
    }
    #expect(log.summaries == [fellBack("NameKey", to: .defaultValue)])
  }

  @Test(
    "An update closure that replaces $0 with a snapshot keeps strict mode",
    .strictInjection,
    .injecting { $0 = InjectedValues.current }
  )
  func snapshotAssignmentKeepsStrictMode() {
    let log = StrictReportLog()
    log.capture {
      _ = InjectedValues[\.name]
    }
    #expect(log.summaries == [fellBack("NameKey", to: .defaultValue)])
  }

  @Test(
    "Each test case of a parameterized test reports its own fallbacks",
    .strictInjection,
    arguments: 0..<4
  )
  func eachCaseReports(argument: Int) {
    let log = StrictReportLog()
    log.capture {
      _ = InjectedValues[\.count]
    }
    #expect(log.summaries == [fellBack("CountKey", to: .defaultValue)])
  }

  @Test("A fallback read away from the test's task is reported when the scope ends")
  func detachedFallbackIsReportedAtTheEnd() async throws {
    let log = StrictReportLog()
    let trait: StrictInjectionTrait = .strictInjection
    try await log.capture {
      try await trait.provideScope(for: Test.current!, testCase: Test.Case.current) {
        let values = InjectedValues.current
        await Task.detached {
          withInjectedValues(values) { _ = InjectedValues[\.count] }
        }.value
        #expect(log.texts.isEmpty)
      }
    }
    #expect(log.summaries == [fellBack("CountKey", to: .defaultValue)])
    #expect(log.texts.first?.contains("read outside the test's task") == true)
    #expect(log.locations == [Test.current!.sourceLocation])
  }

  // MARK: - Global writes

  @Test(
    "Every kind of global write records one issue, even for an overridden or allowed key",
    .strictInjection(allowing: \.globalWrite, \.wrapperWrite),
    .injecting { $0.globalWrite = "overridden" }
  )
  func globalWritesAreReported() {
    let log = StrictReportLog()
    log.capture {
      InjectedValues[\.globalWrite] = "global"
      WrapperWriter().value = "global"
      InjectedValues[TypeWriteKey.self] = "global"
    }
    #expect(
      log.summaries == [
        setGlobally("GlobalWriteKey"), setGlobally("WrapperWriteKey"), setGlobally("TypeWriteKey"),
      ]
    )
    #expect(log.texts.allSatisfy { $0.contains("visible to every test in the process") })
    #expect(InjectedValues[\.globalWrite] == "overridden", "the test's override still wins here")
    // The cleanup the testing guide recommends, which strict mode does not report.
    log.capture {
      InjectedValues.resetGlobal(\.globalWrite)
      InjectedValues.resetGlobal(\.wrapperWrite)
      InjectedValues.resetGlobal(\.typeWrite)
    }
    #expect(log.summaries.count == 3, "no issue for the cleanup")
  }

  @Test("A global write from a task the strict test starts records one issue", .strictInjection)
  func globalWriteFromAChildTaskIsReported() async {
    let log = StrictReportLog()
    await log.capture {
      await Task { InjectedValues[ChildTaskWriteKey.self] = "global, from a child task" }.value
      InjectedValues.resetGlobal(\.childTaskWrite)
    }
    #expect(log.summaries == [setGlobally("ChildTaskWriteKey")])
  }

  @Test(
    "Removing a global value, the cleanup the guide recommends, is not reported",
    .strictInjection
  )
  func removingAGlobalValueIsNotReported() async {
    let log = StrictReportLog()
    await log.capture {
      InjectedValues.resetGlobal(\.resetWrite)
      await Task { InjectedValues.resetGlobal(\.resetWrite) }.value
    }
    #expect(log.texts.isEmpty)
  }

  @Test("resetAllGlobals is not reported either")
  func resetAllGlobalsIsNotReported() async throws {
    #if os(macOS) || os(Linux)  // the platforms with exit tests (none on iOS, tvOS, watchOS)
      // resetAllGlobals removes every test's global values: it runs in a process of its own, under
      // a reporter such as the trait makes.
      await #expect(processExitsWith: .success) {
        let reporter = FallbackReporter(
          allowing: [],
          testName: "Resets every global value",
          sourceLocation: SourceLocation(
            fileID: "Module/ResetTests.swift",
            filePath: "/Module/ResetTests.swift",
            line: 1,
            column: 1
          )
        )
        let reports = Locked<[String]>([])
        try await FallbackReporter.withReportHandler({ report in
          reports.withLock { $0.append(report.text) }
        }) {
          defer { reporter.testEnded() }
          try await reporter.whileRunning {
            withInjectedValues(InjectedValues.current._observed(by: reporter)) {
              InjectedValues.resetAllGlobals()
            }
          }
        }
        let reported = reports.withLock { $0 }
        guard reported.isEmpty else { fatalError("reported: \(reported)") }
      }
    #endif
  }

  @Test("Reads made while a default is created are not reported", .strictInjection)
  func readsWhileCreatingADefaultAreNotReported() {
    let log = StrictReportLog()
    log.capture {
      #expect(InjectedValues[DerivedDefaultKey.self] == "derived from default")
    }
    #expect(log.summaries == [fellBack("DerivedDefaultKey", to: .defaultValue)])
  }

  // MARK: - Which test an issue belongs to

  @Test("A read through a strict test's values after it ended is recorded in no test")
  func readsAfterTheStrictTestEndedAreNotRecorded() async throws {
    let trait: StrictInjectionTrait = .strictInjection
    let callback = Locked<(@Sendable () -> Int)?>(nil)
    let log = StrictReportLog()
    try await log.capture {
      try await trait.provideScope(for: Test.current!, testCase: Test.Case.current) {
        callback.withLock { $0 = InjectedValues.current.bind { InjectedValues[\.count] } }
        _ = InjectedValues[\.name]
      }
    }
    #expect(log.summaries == [fellBack("NameKey", to: .defaultValue)])
    // The strict scope has ended; this test is not strict. Were the fallback recorded, it would
    // be recorded here, in this test: it is only printed, as a warning.
    #expect(log.capture { callback.withLock { $0 }?() } == 0)
    #expect(log.summaries == [fellBack("NameKey", to: .defaultValue)], "no issue is added")
    #expect(log.warnings.count == 1)
    let warning = "warning: " + fellBack("CountKey", to: .defaultValue)
    #expect(log.warnings.first?.hasPrefix(warning) == true)
  }

  @Test("An issue found after the strict test ended prints a warning that names that test")
  func issuesAfterTheEndAreWarnings() {
    let log = StrictReportLog()
    let reporter = FallbackReporter(allowing: [], test: Test.current!)
    reporter.testEnded()
    log.capture {
      reporter.keyFellBack(CountKey.self, isGlobal: false)
      reporter.globalValueChanged(NameKey.self, removed: false)
    }
    #expect(log.texts.isEmpty, "no issue is recorded")
    let printed = log.warnings
    #expect(printed.count == 2)
    #expect(printed.allSatisfy { $0.hasPrefix("warning: Strict injection: ") })
    #expect(
      printed.allSatisfy {
        $0.contains("after the strict test \"\(Test.current!.displayName ?? Test.current!.name)\"")
      }
    )
    #expect(printed.first?.contains("CountKey") == true)
    #expect(printed.last?.contains("set the global value of NameKey") == true)
  }

  // MARK: - What a test sees without the hook

  // The other tests catch each report through `FallbackReporter.withReportHandler`; these two check
  // what a test sees without it: a Swift Testing issue, and a line on standard output.

  #if compiler(>=6.2)  // issue handling traits arrived in Swift 6.2
    @Test("Without the hook, a fallback is an issue of the strict test, at its declaration")
    func fallbackIsRecordedAsAnIssue() async throws {
      let recorded = Locked<[(comments: [String], location: SourceLocation?)]>([])
      // Takes the strict-mode issues out of this test once they are recorded; others stay.
      let takeStrictIssues: IssueHandlingTrait = .filterIssues { issue in
        let comments = issue.comments.map(\.rawValue)
        guard comments.contains(where: { $0.hasPrefix("Strict injection:") }) else { return true }
        recorded.withLock { $0.append((comments, issue.sourceLocation)) }
        return false
      }
      let strict: StrictInjectionTrait = .strictInjection
      try await takeStrictIssues.provideScope(for: Test.current!, testCase: Test.Case.current) {
        try await strict.provideScope(for: Test.current!, testCase: Test.Case.current) {
          _ = InjectedValues[\.count]
        }
      }
      let issues = recorded.withLock { $0 }
      #expect(
        issues.map(\.comments) == [
          [
            fellBack("CountKey", to: .defaultValue)
              + " Override it with .injecting { … }, or allow the fallback with "
              + ".strictInjection(allowing: …)."
          ]
        ]
      )
      #expect(issues.map(\.location) == [Test.current!.sourceLocation])
    }
  #endif

  #if os(macOS) || os(Linux)  // the platforms with exit tests (none on iOS, tvOS, watchOS)
    @Test("Without the hook, a fallback after the strict test ended is printed")
    func lateFallbackIsPrinted() async throws {
      // In a process of its own, so that the line is captured instead of joining this run's output.
      let result = try #require(
        await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
          let reporter = FallbackReporter(
            allowing: [],
            testName: "An ended test",
            sourceLocation: SourceLocation(
              fileID: "Module/EndedTests.swift",
              filePath: "/Module/EndedTests.swift",
              line: 12,
              column: 4
            )
          )
          reporter.testEnded()
          reporter.keyFellBack(CountKey.self, isGlobal: false)
        }
      )
      let printed = String(decoding: result.standardOutputContent, as: UTF8.self)
      #expect(printed.hasPrefix("warning: " + fellBack("CountKey", to: .defaultValue)))
      #expect(printed.contains("the strict test \"An ended test\" (Module/EndedTests.swift:12)"))
      #expect(printed.split(separator: "\n").count == 1)
    }
  #endif

  @Test("Outside strict mode, fallbacks are not reported")
  func withoutStrictModeNothingIsReported() async throws {
    let log = StrictReportLog()
    let strict: StrictInjectionTrait = .strictInjection
    // The same reads, first without strict mode, then with it: only the second is reported.
    _ = InjectedValues[\.count]
    try await log.capture {
      try await strict.provideScope(for: Test.current!, testCase: Test.Case.current) {
        _ = InjectedValues[\.count]
      }
    }
    _ = InjectedValues[\.count]
    #expect(log.summaries == [fellBack("CountKey", to: .defaultValue)])
  }
}

@Suite("Strict mode on suites", .strictInjection(allowing: \.clock))
struct StrictInjectionSuiteTests {
  @Test("A test's allow-list adds to its suite's", .strictInjection(allowing: \.logger))
  func allowListsCombine() {
    let log = StrictReportLog()
    log.capture {
      _ = InjectedValues[\.clock]
      _ = InjectedValues[\.logger]
      _ = InjectedValues[\.count]
    }
    #expect(log.summaries == [fellBack("CountKey", to: .defaultValue)])
  }

  @Suite("A nested suite")
  struct Nested {
    @Test("Nested suites are strict too, with the outer allow-list")
    func nestedSuitesAreStrict() {
      let log = StrictReportLog()
      log.capture {
        _ = InjectedValues[\.clock]
        _ = InjectedValues[\.logger]
      }
      #expect(log.summaries == [fellBack("LoggerKey", to: .defaultValue)])
    }
  }
}
