public import Injection
public import Testing

/// A test trait that records a test issue for every dependency a test reads without an
/// override, once per key.
///
/// Create it with ``Testing/Trait/strictInjection`` or, to let harmless dependencies such as a
/// clock fall back, with ``Testing/Trait/strictInjection(allowing:)-(KeyPath<InjectedValues,Value>Sendable)``
/// (or, for accessors isolated to the main actor, ``Testing/Trait/strictInjection(allowing:)-(KeyPath<InjectedValues,Value>)``):
///
/// ```swift
/// @Test(
///   "Greets without live dependencies",
///   .strictInjection(allowing: \.clock),
///   .injecting { $0.greeting = MockGreeting(word: "Hi") }
/// )
/// func greetsWithoutLiveDependencies() {
///   #expect(Greeter().greet("Ada") == "Hi, Ada")
/// }
/// ```
///
/// A read falls back when no scope overrides its key: it gets the global value or the key's
/// `currentValue`. Inside a strict test, each key that falls back is reported once, with an
/// issue that names the key type and says which of the two the value came from, attributed to
/// the test. Reads in the test's child tasks and in scopes it opens are checked too. Reads made
/// by update closures are not: computing a mock from a default is not using a live dependency.
///
/// Strict mode combines with ``InjectingTrait`` in either order. On a suite, it applies to
/// every test in it and in its nested suites; a test's own allow-list adds to its suite's.
/// When a test case starts, the getter of each allowed accessor runs once, on empty values, to
/// find the keys it reads (a main-actor accessor's getter runs on the main actor, when the trait
/// is created). Fallbacks read outside the test's task, by a detached task that
/// re-entered a snapshot of its values, are recorded when the test case ends.
public struct StrictInjectionTrait: TestTrait, SuiteTrait, TestScoping, StrictnessTrait {
  /// For each allowed accessor, finds the keys its getter reads.
  private let allowedAccessors: [@Sendable () -> [any InjectionKey.Type]]
  private let allowedKeys: Set<ObjectIdentifier>

  fileprivate init(
    allowedAccessors: [@Sendable () -> [any InjectionKey.Type]],
    allowedKeys: Set<ObjectIdentifier>
  ) {
    self.allowedAccessors = allowedAccessors
    self.allowedKeys = allowedKeys
  }

  /// Whether the trait applies to the tests of nested suites too; always `true`.
  public var isRecursive: Bool { true }

  /// Runs `function`, a test case, in strict mode.
  public func provideScope(
    for test: Test,
    testCase: Test.Case?,
    performing function: @Sendable () async throws -> Void
  ) async throws {
    let current = InjectedValues.current
    let allowed = allowedKeyIdentities()
    let enclosing = current._observer as? FallbackReporter
    if let enclosing, enclosing.isRunningHere, enclosing.allowed.isSuperset(of: allowed) {
      // An `.injecting` trait applied before this one already made this test case strict, with
      // every strict trait of the test (see `FallbackReporter.forStrictTest(_:)`).
      return try await function()
    }
    // The first strict trait to apply makes one reporter with the allow-lists of every strict
    // trait of the test (a suite's and the test's own), so that the later ones pass through: a
    // reporter of its own for each would leave the values that the traits in between made (a
    // suite's `.injecting`, its lazy values' factories and teardowns) with the outer one, which
    // knows neither the test's allow-list nor that it runs here.
    let all = FallbackReporter.allowedKeys(for: test) ?? allowed
    let reporter = FallbackReporter(
      allowing: all.union(allowed).union(enclosing?.allowed ?? []),
      test: test
    )
    defer { reporter.testEnded() }
    try await reporter.whileRunning {
      try await withInjectedValues(current._observed(by: reporter)) { try await function() }
    }
  }

  /// The keys this trait lets fall back.
  func allowedKeyIdentities() -> Set<ObjectIdentifier> {
    var allowed = allowedKeys
    for keysRead in allowedAccessors {
      allowed.formUnion(keysRead().map { ObjectIdentifier($0) })
    }
    return allowed
  }

  /// A reporter for a test case of `test` that has strict traits, allowing what all of them
  /// allow; `nil` if it has none. An `.injecting` trait applied before the strict ones uses it,
  /// so that its update closure runs in strict mode too.
}

extension Trait where Self == StrictInjectionTrait {
  /// A trait that records a test issue for every dependency a test reads without an override.
  ///
  /// ```swift
  /// @Test(
  ///   "Uses only mocks",
  ///   .strictInjection,
  ///   .injecting { $0.greeting = MockGreeting(word: "Hi") }
  /// )
  /// func usesOnlyMocks() {
  ///   #expect(Greeter().greet("Ada") == "Hi, Ada")
  /// }
  /// ```
  public static var strictInjection: Self {
    StrictInjectionTrait(allowedAccessors: [], allowedKeys: [])
  }

  /// Returns a strict-mode trait that lets the dependencies behind `keyPaths` fall back.
  ///
  /// Use it for harmless dependencies, such as a clock or a logger, that tests do not mock:
  ///
  /// ```swift
  /// @Test(
  ///   "Reads the live clock and logger",
  ///   .strictInjection(allowing: \.clock, \.logger)
  /// )
  /// func readsTheLiveClockAndLogger() {
  ///   _ = InjectedValues[\.clock]  // no issue: allowed
  ///   _ = InjectedValues[\.logger]  // no issue: allowed
  /// }
  /// ```
  ///
  /// Each accessor's getter runs once when a test case starts, to find the key it reads; a
  /// read-only view allows the keys its getter reads. A key path to an accessor isolated to the
  /// main actor is not `Sendable`: it selects the form that runs on the main actor.
  ///
  /// - Parameter keyPaths: The accessors on `InjectedValues` whose keys may fall back.
  /// - Returns: A trait for `@Test` or `@Suite`.
  public static func strictInjection<each Value>(
    allowing keyPaths: repeat any KeyPath<InjectedValues, each Value> & Sendable
  ) -> Self {
    var accessors: [@Sendable () -> [any InjectionKey.Type]] = []
    for keyPath in repeat each keyPaths {
      accessors.append { InjectedValues._keysRead(by: keyPath) }
    }
    return StrictInjectionTrait(allowedAccessors: accessors, allowedKeys: [])
  }

  /// Returns a strict-mode trait that lets the dependencies behind main-actor accessors fall
  /// back.
  ///
  /// A key path to an accessor isolated to the main actor is not `Sendable`, so it selects this
  /// form, which runs on the main actor: on suites and tests in a test target with default
  /// main-actor isolation, and on the tests of a `@MainActor` suite in any target. The key
  /// behind the accessor may stay private to the app:
  ///
  /// ```swift
  /// @MainActor  // implied in a target with default main-actor isolation
  /// @Suite("Cart badge, strictly")
  /// struct StrictCartBadgeTests {
  ///   @Test("Reads the live badge", .strictInjection(allowing: \.cartBadge))
  ///   func readsTheLiveBadge() {
  ///     _ = InjectedValues[\.cartBadge]  // no issue: allowed
  ///   }
  /// }
  /// ```
  ///
  /// Each accessor's getter runs once, on the main actor, when Swift Testing creates the trait
  /// (before the tests run), to find the keys it reads; the trait keeps those keys, never the
  /// key paths. A key path that is `Sendable` selects the other form.
  ///
  /// - Parameter keyPaths: The accessors on `InjectedValues` whose keys may fall back, at least
  ///   one of them isolated to the main actor.
  /// - Returns: A trait for `@Test` or `@Suite`.
  @MainActor
  public static func strictInjection<each Value>(
    allowing keyPaths: repeat KeyPath<InjectedValues, each Value>
  ) -> Self {
    var keys: Set<ObjectIdentifier> = []
    for keyPath in repeat each keyPaths {
      keys.formUnion(InjectedValues._keysRead(by: keyPath).map { ObjectIdentifier($0) })
    }
    return StrictInjectionTrait(allowedAccessors: [], allowedKeys: keys)
  }

  /// Returns a strict-mode trait that lets the dependencies that `keys` name fall back.
  ///
  /// Use it for a key read without an accessor, such as a type that is its own key:
  ///
  /// ```swift
  /// @Test(
  ///   "Reads the live clock",
  ///   .strictInjection(allowingKeys: ClockKey.self)
  /// )
  /// func readsTheLiveClock() {
  ///   _ = InjectedValues[ClockKey.self]  // no issue: allowed
  /// }
  /// ```
  ///
  /// - Parameter keys: The key types that may fall back.
  /// - Returns: A trait for `@Test` or `@Suite`.
  public static func strictInjection(allowingKeys keys: any InjectionKey.Type...) -> Self {
    StrictInjectionTrait(
      allowedAccessors: [],
      allowedKeys: Set(keys.map { ObjectIdentifier($0) })
    )
  }
}
