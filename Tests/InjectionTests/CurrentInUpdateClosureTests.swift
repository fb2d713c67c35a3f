import Testing

@testable import Injection

// `$0 = InjectedValues.current`, and `$0 = f()` where `f` reads the values being built, in one
// update closure, again and again. `current` is a copy of `$0`, which refers to the closure's
// builder, so every write is kept in every build. `.ci/run` runs this suite in a release build,
// and under AddressSanitizer.

private struct FirstKey: InjectionKey { static let currentValue = 0 }
private struct SecondKey: InjectionKey { static let currentValue = 0 }

extension InjectedValues {
  fileprivate var first: Int {
    get { self[FirstKey.self] }
    set { self[FirstKey.self] = newValue }
  }

  fileprivate var second: Int {
    get { Self[SecondKey.self] }
    set { Self[SecondKey.self] = newValue }
  }
}

/// A snapshot taken before the tests, held by a global: another value than the values being built.
private let savedElsewhere = withInjectedValues {
  $0.first = -100
} operation: {
  InjectedValues.current
}

/// A value built from the values being built, as a helper function would build it.
private func prepared(first: Int) -> InjectedValues {
  var values = InjectedValues.current
  values.first = first
  return values
}

/// Runs 20,000 scopes whose update closure is `update` (given `$0` and the round) and counts the
/// rounds whose operation did not read `expected(round)` as `(first, second)`.
@inline(__always)
private func roundsMissing(
  _ expected: (Int) -> (Int, Int),
  update: (inout InjectedValues, Int) -> Void
) -> Int {
  var wrong = 0
  for round in 0..<20_000 {
    let seen = withInjectedValues {
      update(&$0, round)
    } operation: {
      (InjectedValues[\.first], InjectedValues[\.second])
    }
    if seen != expected(round) { wrong += 1 }
  }
  return wrong
}

@Suite("Assigning the values being built to $0")
struct CurrentInUpdateClosureTests {
  @Test("$0 = InjectedValues.current and $0 = f() between writes of both styles keep every write")
  func assigningCurrentKeepsEveryWrite() {
    let wrong = roundsMissing({ ($0 + 5, $0 + 3) }) { values, round in
      values.first = round
      values = InjectedValues.current
      values.second = round + 1
      values = InjectedValues.current
      values = prepared(first: round + 5)
      values = InjectedValues.current
      values.second = round + 3
    }
    #expect(wrong == 0)
  }

  // Writes to `$0` through its own setter here, not a seed-style one: see Design.md, "Frames".
  @Test("A write to another value between them does not let go of the values being built")
  func writingAnotherValueKeepsTheValuesBeingBuilt() {
    let wrong = roundsMissing({ ($0, $0 + 1) }) { values, round in
      values.first = round
      var other = savedElsewhere
      other.first = -1
      _ = other
      values = InjectedValues.current
      values[SecondKey.self] = round + 1
      var empty = InjectedValues.empty
      empty.first = -2
      _ = empty
      values = InjectedValues.current
    }
    #expect(wrong == 0)
  }

  @Test("The same in an asynchronous update closure")
  func writingAnotherValueAsynchronously() async throws {
    for round in 0..<2_000 {
      let values = try await InjectedValues._updatingAsynchronously(fileID: #fileID, line: #line) {
        $0.first = round
        var other = savedElsewhere
        other.first = -1
        _ = other
        $0 = InjectedValues.current
        $0.second = round + 1
      }
      #expect(values[FirstKey.self] == round)
      #expect(values[SecondKey.self] == round + 1)
    }
  }

  @Test("The same in an asynchronous update closure, across suspensions")
  func assigningCurrentAsynchronously() async throws {
    for round in 0..<200 {
      let values = try await InjectedValues._updatingAsynchronously(fileID: #fileID, line: #line) {
        $0.first = round
        await Task.yield()
        $0 = InjectedValues.current
        $0.second = round + 1
        $0 = InjectedValues.current
      }
      #expect(values[FirstKey.self] == round)
      #expect(values[SecondKey.self] == round + 1)
    }
  }
}
