import Dispatch
import Testing

@testable import Injection

private struct ProvenanceGlobalKey: InjectionKey {
  static let currentValue = 0
}

extension InjectedValues {
  fileprivate var provenanceGlobal: Int {
    get { self[ProvenanceGlobalKey.self] }
    set { self[ProvenanceGlobalKey.self] = newValue }
  }
}

@Suite("Provenance and escaping closures")
struct ProvenanceTests {
  @Test("source(of:) names the scope's file and line, the global value, or the default")
  func sourceOfKey() {
    defer { removeGlobal(ProvenanceGlobalKey.self) }
    #expect(InjectedValues.current.source(of: CountKey.self) == .defaultValue)
    #expect(InjectedValues.current.source(of: \.count) == .defaultValue)
    InjectedValues[\.provenanceGlobal] = 1
    #expect(InjectedValues.current.source(of: \.provenanceGlobal) == .global)

    let line = #line + 1
    withInjectedValues {
      $0.count = 1
    } operation: {
      let expected = InjectionSource.scope(
        fileID: "InjectionTests/ProvenanceTests.swift",
        line: line
      )
      #expect(InjectedValues.current.source(of: CountKey.self) == expected)
      #expect(InjectedValues.current.source(of: \.count) == expected)
      #expect(
        "\(InjectedValues.current.source(of: \.count))" == "scope at \(expected.fileIDAndLine)"
      )
    }
  }

  @Test("source(of:) follows seed-style accessors and read-only views to their key")
  func sourceThroughViews() {
    let line = #line + 1
    withInjectedValues {
      $0.seedCount = 1; $0.name = "x"
    } operation: {
      let expected = InjectionSource.scope(
        fileID: "InjectionTests/ProvenanceTests.swift",
        line: line
      )
      #expect(InjectedValues.current.source(of: \.seedCount) == expected)
      #expect(InjectedValues.current.source(of: \.shoutedName) == expected)
    }
  }

  @Test("An override set on a snapshot outside a scope reports .snapshot")
  func snapshotSource() {
    var values = InjectedValues.current
    values.count = 3
    #expect(values.source(of: \.count) == .snapshot)
  }

  @Test("description lists the overrides innermost first, with their locations")
  func descriptionListsOverrides() {
    #expect(InjectedValues.current.description == "InjectedValues: no overrides")
    let outer = #line + 1
    withInjectedValues {
      $0.count = 3
    } operation: {
      let inner = #line + 1
      withInjectedValues {
        $0.name = "inner"
      } operation: {
        let file = "InjectionTests/ProvenanceTests.swift"
        #expect(
          InjectedValues.current.description == """
            InjectedValues: 2 overrides, innermost first
              NameKey = inner  ← scope at \(file):\(inner)
              CountKey = 3  ← scope at \(file):\(outer)
            """
        )
      }
    }
  }

  @Test("description shows only the innermost override of a key")
  func descriptionShowsVisibleOverrides() {
    withInjectedValues {
      $0.count = 1
    } operation: {
      withInjectedValues {
        $0.count = 2
      } operation: {
        let description = InjectedValues.current.description
        #expect(description.contains("CountKey = 2"))
        #expect(!description.contains("CountKey = 1"))
        #expect(description.hasPrefix("InjectedValues: 1 override,"))
      }
    }
  }

  @Test("bind carries a snapshot into a GCD block and a stored callback")
  func bindCarriesSnapshot() async {
    let (withArgument, withoutArgument) = await withInjectedValues {
      $0.name = "bound"
    } operation: {
      (
        InjectedValues.current.bind { (suffix: String) in InjectedValues[\.name] + suffix },
        InjectedValues.current.bind { InjectedValues[\.name] }
      )
    }
    #expect(withArgument("!") == "bound!")
    let fromQueue = await withCheckedContinuation { continuation in
      DispatchQueue.global().async { continuation.resume(returning: withoutArgument()) }
    }
    #expect(fromQueue == "bound")
    #expect(InjectedValues[\.name] == "default")
  }

  @Test("An asynchronous update closure builds values with both accessor styles")
  func asynchronousUpdate() async throws {
    let values = try await InjectedValues._updatingAsynchronously(fileID: #fileID, line: 7) {
      values in
      values.count = 1
      await Task.yield()
      values.seedCount = 2
      values.count += 10
    }
    #expect(values.count == 11)
    #expect(values[SeedCountKey.self] == 2)
    // A seed-style getter reads the task's values, so read it inside the values' scope.
    #expect(withInjectedValues(values) { InjectedValues[\.seedCount] } == 2)
    #expect(values.source(of: \.seedCount) == .scope(fileID: #fileID, line: 7))
    #expect(InjectedValues[\.seedCount] == 100, "nothing leaked to the global value")
  }
}

extension InjectionSource {
  fileprivate var fileIDAndLine: String {
    if case .scope(let fileID, let line) = self { return "\(fileID):\(line)" }
    return ""
  }
}
