#if canImport(XCTest)
  public import Injection
  public import XCTest
  internal import Foundation  // `Thread.isMainThread`

  /// An XCTest base class that runs each test, synchronous or `async`, inside a scope with the
  /// overrides its subclass sets.
  ///
  /// Subclass it and override ``injectValues(_:)``; every test method then runs in its own
  /// scope, with fresh mocks, and so do `setUp` and `tearDown`:
  ///
  /// ```swift
  /// final class GreeterTests: InjectedTestCase {
  ///   override func injectValues(_ values: inout InjectedValues) {
  ///     values.greeting = MockGreeting(word: "Hi")
  ///   }
  ///
  ///   func testGreets() {
  ///     XCTAssertEqual(Greeter().greet("Ada"), "Hi, Ada")
  ///   }
  ///
  ///   func testGreetsFromATask() async {
  ///     let greeting = await Task { Greeter().greet("Ada") }.value
  ///     XCTAssertEqual(greeting, "Hi, Ada")
  ///   }
  /// }
  /// ```
  ///
  /// ``injectValues(_:)`` is isolated to the main actor, where XCTest runs each test, so it
  /// builds main-actor mocks with their initializers. In a test target with default main-actor
  /// isolation, mark the subclass `nonisolated`, as any `XCTestCase` subclass there needs, and
  /// its override `@MainActor`; declare test methods that touch main-actor code `@MainActor`
  /// and `async` (a synchronous `@MainActor` test method crashes XCTest's discovery on Linux):
  ///
  /// ```swift
  /// nonisolated final class ThemeTests: InjectedTestCase {
  ///   @MainActor
  ///   override func injectValues(_ values: inout InjectedValues) {
  ///     values.themeStore = ThemeStore(theme: "light")
  ///   }
  ///
  ///   @MainActor
  ///   func testShowsTheLightTheme() async {
  ///     XCTAssertEqual(InjectedValues[\.themeStore].theme, "light")
  ///   }
  /// }
  /// ```
  ///
  /// Nothing is global, so XCTest cases may run in parallel with each other and with Swift
  /// Testing tests. Provenance reports these overrides as set in this file, at the scope this
  /// class opens; to record your own file and line instead, override `invokeTest()` yourself,
  /// as the testing guide shows.
  open class InjectedTestCase: XCTestCase {
    /// Sets the overrides that every test of this class runs with.
    ///
    /// It runs before each test, before `setUp`, on the main actor, and `values` starts from the
    /// values visible there. Call `super` to keep the overrides of a base class's own override.
    ///
    /// ```swift
    /// override func injectValues(_ values: inout InjectedValues) {
    ///   super.injectValues(&values)
    ///   values.count = 3
    /// }
    /// ```
    ///
    /// - Parameter values: The values to change, as in a `withInjectedValues` update closure.
    ///   Use it only inside this method.
    @MainActor
    open func injectValues(_ values: inout InjectedValues) {}

    /// Runs the test, with its `setUp` and `tearDown`, inside a scope with the overrides of
    /// this test case.
    ///
    /// XCTest calls it once per test, on the main thread. The scope's overrides are the ones
    /// ``injectValues(_:)`` sets, on the main actor; called on another thread, this method stops
    /// the program with a message saying so. An `async` test method runs in a task that XCTest
    /// starts from inside this method; that task inherits the scope, as any `Task {}` does.
    ///
    /// A subclass can open a scope around it; ``injectValues(_:)`` then starts from that scope:
    ///
    /// ```swift
    /// override func invokeTest() {
    ///   withInjectedValues {
    ///     $0.count = 1
    ///   } operation: {
    ///     super.invokeTest()  // `injectValues(_:)` sees count == 1
    ///   }
    /// }
    /// ```
    override open func invokeTest() {
      guard Thread.isMainThread else {
        fatalError(
          "InjectionTesting: \(type(of: self)).invokeTest() was called off the main thread. "
            + "injectValues(_:) is isolated to the main actor, and XCTest calls invokeTest() on "
            + "the main thread: if you call it yourself, call it on the main thread."
        )
      }
      // Safe: `assumeIsolated` runs the closure at once, on this thread, which is the main
      // thread (checked above), so the test case is never used on two threads at once.
      let testCase = UncheckedSendable(self)
      withInjectedValues { values in
        MainActor.assumeIsolated { testCase.value.injectValues(&values) }
      } operation: {
        super.invokeTest()
      }
    }
  }
#endif
