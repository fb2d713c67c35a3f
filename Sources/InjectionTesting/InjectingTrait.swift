public import Injection
public import Testing

/// A test trait that runs each test, and each case of a parameterized test, inside a scope
/// with the overrides that its update closure sets.
///
/// Create it with ``Testing/Trait/injecting(_:fileID:line:)``:
///
/// ```swift
/// @Test(
///   "Greets with the mock",
///   .injecting { $0.greeting = MockGreeting(word: "Hi") }
/// )
/// func greetsWithTheMock() {
///   #expect(Greeter().greet("Ada") == "Hi, Ada")
/// }
/// ```
///
/// On a suite, the trait applies to every test in it and in its nested suites. The update
/// closure runs again for every test case, so each one gets fresh mocks, and tests running in
/// parallel never share them. When a suite and a test both have the trait, the suite's update
/// runs first and the test's update sees what it set, so `$0.count += 1` builds on the suite.
/// If the update closure throws, the error fails the test case and its body does not run.
///
/// The update closure is isolated to the main actor, so it builds main-actor mocks with their
/// main-actor initializers, as every class of a module with default main-actor isolation has:
///
/// ```swift
/// @Test(
///   "Shows the light theme",
///   .injecting { $0.themeStore = ThemeStore(theme: "light") }
/// )
/// func showsTheLightTheme() async {
///   #expect(await InjectedValues[\.themeStore].theme == "light")
/// }
/// ```
///
/// It runs in the test case's task, just before the body, so it sees the values of the traits
/// applied before it; only the update hops to the main actor, and the body runs with the
/// isolation it declares. A factory passed to `lazy` in it is `@Sendable`, and so nonisolated:
/// it runs where the value is first read.
public struct InjectingTrait: TestTrait, SuiteTrait, TestScoping {
  private let update: @MainActor @Sendable (inout InjectedValues) async throws -> Void
  private let fileID: StaticString
  private let line: UInt

  fileprivate init(
    update: @escaping @MainActor @Sendable (inout InjectedValues) async throws -> Void,
    fileID: StaticString,
    line: UInt
  ) {
    self.update = update
    self.fileID = fileID
    self.line = line
  }

  /// Whether the trait applies to the tests of nested suites too; always `true`.
  public var isRecursive: Bool { true }

  /// Runs `function`, a test case, inside a scope with the overrides the update closure sets.
  public func provideScope(
    for test: Test,
    testCase: Test.Case?,
    performing function: @Sendable () async throws -> Void
  ) async throws {
    let outer = InjectedValues.current
    if outer._observer == nil, let reporter = FallbackReporter.forStrictTest(test) {
      // The test is strict, but its strict trait applies inside this one: strict mode starts
      // here, so that this update closure and its teardowns are checked too.
      defer { reporter.testEnded() }
      try await reporter.whileRunning {
        try await withInjectedValues(outer._observed(by: reporter)) {
          try await provideScope(for: test, testCase: testCase, performing: function)
        }
      }
      return
    }
    // The update runs on the main actor, in this task (so it sees this task's values), and the
    // test body then runs wherever it would without the trait.
    var values = try await InjectedValues._updatingAsynchronously(
      fileID: fileID,
      line: line,
      with: update,
      isolation: MainActor.shared
    )
    // An update that assigns `$0` a whole snapshot must not switch off an enclosing strict mode.
    if values._observer == nil, let observer = outer._observer {
      values = values._observed(by: observer)
    }
    try await InjectedValues._withScope(values) { try await function() }
  }
}

extension Trait where Self == InjectingTrait {
  /// Returns a trait that runs each test case inside a scope with the overrides that `update`
  /// sets.
  ///
  /// `update` runs before every test case, in its task, on the main actor, and may suspend and
  /// throw:
  ///
  /// ```swift
  /// @Suite("Counting", .injecting { $0.count = 1 })
  /// struct CountingTests {
  ///   @Test("Builds on the suite's override", .injecting { $0.count += 1 })
  ///   func buildsOnTheSuite() {
  ///     #expect(InjectedValues[\.count] == 2)
  ///   }
  ///
  ///   @Test(
  ///     "Loads a fixture",
  ///     .injecting { $0.count = try await loadFixtureCount() }
  ///   )
  ///   func loadsAFixture() {
  ///     #expect(InjectedValues[\.count] == 42)
  ///   }
  /// }
  /// ```
  ///
  /// Provenance names the declaration the trait is attached to:
  /// `InjectedValues.current.source(of: \.count)` describes the override as, for example,
  /// `scope at MyTests/CountingTests.swift:4`. Swift reports default arguments written in an
  /// attached attribute at the line of the `func` or `struct` keyword, not the attribute's.
  ///
  /// - Parameters:
  ///   - update: Changes the overrides for the test case, on the main actor. Use its argument
  ///     only inside it.
  ///   - fileID: The file recorded as where the overrides were set; leave the default.
  ///   - line: The line recorded as where the overrides were set; leave the default.
  /// - Returns: A trait for `@Test` or `@Suite`.
  public static func injecting(
    _ update: @escaping @MainActor @Sendable (inout InjectedValues) async throws -> Void,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> Self {
    InjectingTrait(update: update, fileID: fileID, line: line)
  }
}
