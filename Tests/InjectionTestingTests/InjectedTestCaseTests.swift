#if canImport(XCTest)
  import Injection
  import InjectionTesting
  import XCTest

  // XCTest appears only here: these tests check the XCTest support itself.

  final class InjectedTestCaseTests: InjectedTestCase {
    private var countSeenBySetUp: Int?

    override func injectValues(_ values: inout InjectedValues) {
      super.injectValues(&values)
      values.count = 5
      values.tally = Tally()
    }

    override func setUp() {
      super.setUp()
      countSeenBySetUp = InjectedValues[\.count]
    }

    func testSynchronousTestRunsInTheScope() {
      XCTAssertEqual(InjectedValues[\.count], 5)
      XCTAssertEqual(countSeenBySetUp, 5)
    }

    func testAsyncTestRunsInTheScope() async {
      XCTAssertEqual(InjectedValues[\.count], 5)
      await Task.yield()
      XCTAssertEqual(InjectedValues[\.count], 5)
      let fromChild = await Task { InjectedValues[\.count] }.value
      XCTAssertEqual(fromChild, 5)
    }

    func testAsyncThrowingTestRunsInTheScope() async throws {
      try await Task.sleep(nanoseconds: 1_000_000)
      XCTAssertEqual(InjectedValues[\.count], 5)
    }

    func testEachTestGetsFreshMocks() {
      XCTAssertEqual(InjectedValues[\.tally].claim(by: 1), [1])
    }

    func testEachTestGetsFreshMocksToo() async {
      XCTAssertEqual(InjectedValues[\.tally].claim(by: 2), [2])
    }

    func testProvenanceNamesTheBaseClassScope() {
      guard case .scope(let fileID, _) = InjectedValues.current.source(of: \.count) else {
        return XCTFail("count should come from a scope")
      }
      XCTAssertEqual(fileID, "InjectionTesting/InjectedTestCase.swift")
    }
  }

  /// A base class of the project's own, with overrides for all its subclasses.
  class NamedTestCase: InjectedTestCase {
    override func injectValues(_ values: inout InjectedValues) {
      super.injectValues(&values)
      values.name = "base"
    }
  }

  final class InjectedTestCaseSubclassTests: NamedTestCase {
    // Mirrors the doc comment of `InjectedTestCase.injectValues(_:)`.
    override func injectValues(_ values: inout InjectedValues) {
      super.injectValues(&values)
      values.count = 3
    }

    func testSubclassKeepsTheBaseOverrides() async {
      XCTAssertEqual(InjectedValues[\.name], "base")
      XCTAssertEqual(InjectedValues[\.count], 3)
    }
  }

  final class LayeredInjectedTestCaseTests: InjectedTestCase {
    // Mirrors the doc comment of `InjectedTestCase.invokeTest()`.
    override func invokeTest() {
      withInjectedValues {
        $0.count = 1
      } operation: {
        super.invokeTest()  // `injectValues(_:)` sees count == 1
      }
    }

    override func injectValues(_ values: inout InjectedValues) {
      values.count += 10
    }

    func testInjectValuesStartsFromTheEnclosingScope() {
      XCTAssertEqual(InjectedValues[\.count], 11)
    }
  }

  // Mirrors the doc comment of `InjectedTestCase`.
  final class GreeterTests: InjectedTestCase {
    override func injectValues(_ values: inout InjectedValues) {
      values.greeting = MockGreeting(word: "Hi")
    }

    func testGreets() {
      XCTAssertEqual(Greeter().greet("Ada"), "Hi, Ada")
    }

    func testGreetsFromATask() async {
      let greeting = await Task { Greeter().greet("Ada") }.value
      XCTAssertEqual(greeting, "Hi, Ada")
    }
  }
#endif
