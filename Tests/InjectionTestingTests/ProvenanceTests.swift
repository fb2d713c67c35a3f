import Injection
import InjectionTesting
import Testing

private let file = "InjectionTestingTests/ProvenanceTests.swift"

// Swift reports the default arguments of a trait written in an attached attribute at the line of
// the declaration's keyword: the `func` or `struct` line, recorded below with `#line - 1`.

@Suite("Provenance of trait overrides", .injecting { $0.name = "suite" })
struct ProvenanceTests {
  static let suiteLine = #line - 1

  @Test(
    "source(of:) names the file and line of the test the trait is attached to",
    .injecting { $0.count = 1 }
  )
  func sourceOfTestTrait() {
    let testLine = #line - 1
    #expect(InjectedValues.current.source(of: \.count) == .scope(fileID: file, line: testLine))
    #expect(
      "\(InjectedValues.current.source(of: CountKey.self))" == "scope at \(file):\(testLine)"
    )
  }

  @Test("source(of:) names the suite for the suite's overrides")
  func sourceOfSuiteTrait() {
    #expect(InjectedValues.current.source(of: \.name) == .scope(fileID: file, line: Self.suiteLine))
    #expect(InjectedValues.current.source(of: \.count) == .defaultValue)
  }

  @Test("description lists the trait overrides innermost first", .injecting { $0.count = 2 })
  func descriptionListsTraitOverrides() {
    let testLine = #line - 1
    #expect(
      InjectedValues.current.description == """
        InjectedValues: 2 overrides, innermost first
          CountKey = 2  ← scope at \(file):\(testLine)
          NameKey = suite  ← scope at \(file):\(Self.suiteLine)
        """
    )
  }

  @Test("description says when strict mode is on", .strictInjection(allowing: \.name))
  func descriptionShowsStrictMode() {
    #expect(
      InjectedValues.current.description == """
        InjectedValues: 1 override, innermost first
          NameKey = suite  ← scope at \(file):\(Self.suiteLine)
          (strict: reads that fall back to a global value or default are reported)
        """
    )
  }

  @Test(
    "The strict-mode issue names where the value came from, as source(of:) does",
    .strictInjection
  )
  func strictIssueUsesProvenanceWords() {
    let log = StrictReportLog()
    log.capture {
      _ = InjectedValues[\.count]
    }
    let source = InjectedValues.current.source(of: \.count)
    #expect(source == .defaultValue)
    #expect(log.texts.count == 1)
    #expect(log.texts.first?.contains("fell back to the \(source).") == true)
  }
}
