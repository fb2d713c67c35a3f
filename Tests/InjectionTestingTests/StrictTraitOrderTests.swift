import Testing

@testable import Injection
@testable import InjectionTesting

// Strict mode covers the whole test case whatever the order of the traits, and an issue reaches
// only the test case whose values were read, also among the cases of one parameterized test.

private struct OrderGlobalWriteKey: InjectionKey {
  static let currentValue = "default"
}

private struct CaseFallbackKey: InjectionKey {
  static let currentValue = 0
}

extension InjectedValues {
  fileprivate var orderGlobalWrite: String {
    get { self[OrderGlobalWriteKey.self] }
    set { self[OrderGlobalWriteKey.self] = newValue }
  }

  fileprivate var caseFallback: Int {
    get { self[CaseFallbackKey.self] }
    set { self[CaseFallbackKey.self] = newValue }
  }
}

@Suite("Strict mode and trait order")
struct StrictTraitOrderTests {
  @Test(
    "An .injecting trait applied outside a strict test's trait reports a global write in its update",
    .strictInjection
  )
  func injectingOutsideStrictReportsGlobalWrites() async throws {
    let log = StrictReportLog()
    let injecting: InjectingTrait = .injecting { _ in
      InjectedValues[\.orderGlobalWrite] = "written globally"
    }
    let strict: StrictInjectionTrait = .strictInjection
    try await log.capture {
      // No strict observer around the traits (as when the runner applies `.injecting` first):
      // the test's own strict trait is what the injecting trait finds.
      try await withInjectedValues(InjectedValues()) {
        try await injecting.provideScope(for: Test.current!, testCase: Test.Case.current) {
          try await strict.provideScope(for: Test.current!, testCase: Test.Case.current) {
            _ = InjectedValues[\.caseFallback]
          }
        }
        InjectedValues.resetGlobals(of: [OrderGlobalWriteKey.self])  // outside strict mode
      }
    }
    #expect(
      log.summaries == [
        "Strict injection: this test set the global value of OrderGlobalWriteKey.",
        fellBack("CaseFallbackKey", to: .defaultValue),
      ]
    )
  }

  @Test("A teardown that reads an override of the same .injecting trait reports nothing")
  func teardownReadsTheTraitsOverrides() async throws {
    let seen = Locked<[Int]>([])
    let injecting: InjectingTrait = .injecting {
      $0.caseFallback = 7
      $0.lazy(\.orderGlobalWrite) {
        "built"
      } teardown: { _ in
        seen.withLock { $0.append(InjectedValues[\.caseFallback]) }
      }
    }
    let strict: StrictInjectionTrait = .strictInjection
    // Any strict issue would fail this test: none is expected.
    try await strict.provideScope(for: Test.current!, testCase: Test.Case.current) {
      try await injecting.provideScope(for: Test.current!, testCase: Test.Case.current) {
        #expect(InjectedValues[\.orderGlobalWrite] == "built")
      }
    }
    #expect(seen.withLock { $0 } == [7])
  }
}

@Suite("Strict issues in parameterized tests")
struct StrictParameterizedTests {
  @Test("A fallback through one case's values, read while another case runs, goes to the first")
  func fallbackGoesToTheCaseWhoseValuesWereRead() async throws {
    let first = FallbackReporter(allowing: [], test: Test.current!)
    let second = FallbackReporter(allowing: [], test: Test.current!)
    let log = StrictReportLog()
    // Both reporters belong to the same test, as the cases of a parameterized test do.
    try await log.capture {
      try await second.whileRunning {
        first.keyFellBack(CaseFallbackKey.self, isGlobal: false)
      }
    }
    #expect(log.texts.isEmpty, "nothing is recorded in the case that made the call")
    log.capture {
      first.testEnded()
    }
    #expect(log.texts.count == 1)
    #expect(log.texts.first?.contains("read outside the test's task") == true)
  }

  @Test("Two strict scopes of one test: a callback bound in one and called from the other")
  func callbackAcrossStrictScopesOfOneTest() async throws {
    let strict: StrictInjectionTrait = .strictInjection
    let callback = Locked<(@Sendable () -> Int)?>(nil)
    let called = Locked(false)
    let firstLog = StrictReportLog()
    let secondLog = StrictReportLog()
    async let first: Void = firstLog.capture {
      try await strict.provideScope(for: Test.current!, testCase: Test.Case.current) {
        callback.withLock { $0 = InjectedValues.current.bind { InjectedValues[\.caseFallback] } }
        // Stay in the scope until the other scope has called the callback.
        for _ in 0..<10_000 where !called.withLock({ $0 }) {
          try await Task.sleep(nanoseconds: 1_000_000)
        }
      }
    }
    async let second: Void = secondLog.capture {
      for _ in 0..<10_000 where callback.withLock({ $0 }) == nil {
        try await Task.sleep(nanoseconds: 1_000_000)
      }
      try await strict.provideScope(for: Test.current!, testCase: Test.Case.current) {
        _ = callback.withLock { $0 }?()
        called.withLock { $0 = true }
      }
    }
    _ = try await (first, second)
    #expect(secondLog.texts.isEmpty)
    #expect(firstLog.summaries == [fellBack("CaseFallbackKey", to: .defaultValue)])
  }
}

// MARK: - A suite's strict trait and a test's own, with a suite's lazy value between them

private struct SuiteLazyKey: InjectionKey {
  static let currentValue = "live lazy"
}

private struct AllowedByTestKey: InjectionKey {
  static let currentValue = "live allowed"
}

extension InjectedValues {
  fileprivate var suiteLazy: String {
    get { self[SuiteLazyKey.self] }
    set { self[SuiteLazyKey.self] = newValue }
  }

  fileprivate var allowedByTest: String {
    get { self[AllowedByTestKey.self] }
    set { self[AllowedByTestKey.self] = newValue }
  }
}

// The suite's `.injecting` trait applies between the suite's strict trait and each test's own:
// its lazy value's factory and teardown read through the values it made. Any strict issue that
// is not expected fails these tests.
@Suite(
  "A suite's lazy value under a test's own allow-list",
  .strictInjection,
  .injecting {
    $0.lazy(\.suiteLazy) {
      "built from " + InjectedValues[\.allowedByTest]
    } teardown: { _ in
      _ = InjectedValues[\.allowedByTest]
    }
  }
)
struct SuiteLazyUnderTestAllowListTests {
  @Test(
    "The test's allow-list covers what the suite's factory and teardown read",
    .strictInjection(allowing: \.allowedByTest)
  )
  func allowListCoversSuiteFactoryAndTeardown() {
    #expect(InjectedValues[\.suiteLazy] == "built from live allowed")
    #expect(InjectedValues[\.allowedByTest] == "live allowed")
  }

  @Test(
    "A fallback in the suite's factory is reported at the read, in the test's body",
    .strictInjection(allowing: \.suiteLazy)
  )
  func factoryFallbackIsRecordedAtTheRead() {
    let log = StrictReportLog()
    log.capture {
      _ = InjectedValues[\.suiteLazy]  // builds it: the factory reads `allowedByTest`
    }
    #expect(log.summaries == [fellBack("AllowedByTestKey", to: .defaultValue)])
    // The teardown reads `allowedByTest` again after the body: once per key, so no new issue.
  }
}
