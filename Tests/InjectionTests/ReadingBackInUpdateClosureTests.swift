import Testing

@testable import Injection

// Reading `$0` itself back (copying it, describing it, subscripting it) after seed-style writes
// in the same update closure. A seed-style setter writes through the frame, so an optimized
// closure may go on using a copy of `$0` that it loaded before the write: such a read may be
// stale in a release build (Design.md, "Frames"), but it must never reach a chain that was freed.
// Rewriting a key and writing more keys than a value links one by one drop the chain a stale
// copy refers to; the frame holds every such chain until the closure returns.
// `.ci/model-long.sh` runs this suite in a release build too.

private struct ReadBackCountKey: InjectionKey { static let currentValue = 0 }
private struct ReadBackLabelKey: InjectionKey { static let currentValue = "none" }

/// Keys for writing more of them than a value links one by one.
private struct ReadBackKeyA: InjectionKey { static let currentValue = 0 }
private struct ReadBackKeyB: InjectionKey { static let currentValue = 0 }
private struct ReadBackKeyC: InjectionKey { static let currentValue = 0 }
private struct ReadBackKeyD: InjectionKey { static let currentValue = 0 }
private struct ReadBackKeyE: InjectionKey { static let currentValue = 0 }
private struct ReadBackKeyF: InjectionKey { static let currentValue = 0 }

extension InjectedValues {
  fileprivate var readBackCount: Int {
    get { Self[ReadBackCountKey.self] }
    set { Self[ReadBackCountKey.self] = newValue }
  }

  fileprivate var readBackLabel: String {
    get { Self[ReadBackLabelKey.self] }
    set { Self[ReadBackLabelKey.self] = newValue }
  }
}

/// Writes all six keys seed-style, one after the other, with `round` and then `round + 1`.
private func writeSixKeys(_ round: Int) {
  for value in [round, round + 1] {
    InjectedValues[ReadBackKeyA.self] = value
    InjectedValues[ReadBackKeyB.self] = value
    InjectedValues[ReadBackKeyC.self] = value
    InjectedValues[ReadBackKeyD.self] = value
    InjectedValues[ReadBackKeyE.self] = value
    InjectedValues[ReadBackKeyF.self] = value
  }
}

// One scope each, in functions of their own: inlined into a test's loop, the release build
// compiled the closure differently, and the read of a freed chain did not show.

/// A scope that describes `$0` after each of two seed-style writes of one key.
@inline(never)
private func describedBetweenRewrites(_ round: Int) -> (seen: Int, String, String) {
  var (first, second) = ("", "")
  let seen = withInjectedValues {
    $0.readBackCount = round
    first = $0.description
    $0.readBackCount = round + 1
    second = $0.description
  } operation: {
    InjectedValues[\.readBackCount]
  }
  return (seen, first, second)
}

/// A scope that copies `$0` after each of three seed-style writes of one key, and reads it once.
@inline(never)
private func copiedBetweenRewrites(
  _ round: Int
) -> (seen: (Int, String), read: Int, copies: [InjectedValues]) {
  var copies: [InjectedValues] = []
  var read = 0
  let seen = withInjectedValues {
    $0.readBackCount = round + 1
    copies.append($0)
    $0.readBackLabel = "round \(round)"
    $0.readBackCount = round + 2
    copies.append($0)
    read = $0[ReadBackCountKey.self]
    $0.readBackCount = round + 3
    copies.append($0)
  } operation: {
    (InjectedValues[\.readBackCount], InjectedValues[\.readBackLabel])
  }
  return (seen, read, copies)
}

/// A scope that writes six keys seed-style twice, copying `$0` before, between and after.
@inline(never)
private func copiedAroundManyWrites(_ round: Int) -> (seen: (Int, Int, Int), [InjectedValues]) {
  var copies: [InjectedValues] = []
  let seen = withInjectedValues {
    copies.append($0)
    writeSixKeys(round)
    copies.append($0)
    _ = $0.description
    $0.readBackCount = round
    copies.append($0)
  } operation: {
    (
      InjectedValues[ReadBackKeyA.self], InjectedValues[ReadBackKeyF.self],
      InjectedValues[\.readBackCount]
    )
  }
  return (seen, copies)
}

@Suite("Reading $0 back after seed-style writes")
struct ReadingBackInUpdateClosureTests {
  @Test("Describing $0 between rewrites of one key reads live values")
  func describingBetweenRewrites() {
    var wrong = 0
    for round in 0..<5_000 {
      let (seen, first, second) = describedBetweenRewrites(round)
      // Debug builds describe each write; a release build may describe an earlier value.
      if seen != round + 1 || !first.hasPrefix("InjectedValues") || !second.hasPrefix("Injected") {
        wrong += 1
      }
    }
    #expect(wrong == 0)
  }

  @Test("Copying and subscripting $0 between rewrites of one key reads live values")
  func copyingBetweenRewrites() {
    var wrongReads = 0
    var wrongScopes = 0
    for round in 0..<5_000 {
      let (seen, read, copies) = copiedBetweenRewrites(round)
      if seen != (round + 3, "round \(round)") { wrongScopes += 1 }
      // Debug builds see each write; a release build may see an earlier value, never another.
      if !(0...(round + 2)).contains(read) { wrongReads += 1 }
      for copy in copies where !(0...(round + 3)).contains(copy[ReadBackCountKey.self]) {
        wrongReads += 1
      }
    }
    #expect(wrongReads == 0)
    #expect(wrongScopes == 0)
  }

  @Test("The same when the writes outgrow the overrides a value links one by one")
  func writingManyKeys() {
    var wrongReads = 0
    var wrongScopes = 0
    for round in 0..<2_000 {
      let (seen, copies) = copiedAroundManyWrites(round)
      if seen != (round + 1, round + 1, round) { wrongScopes += 1 }
      for copy in copies where !(0...(round + 1)).contains(copy[ReadBackKeyF.self]) {
        wrongReads += 1
      }
    }
    #expect(wrongReads == 0)
    #expect(wrongScopes == 0)
  }

  @Test("The same in an asynchronous update closure")
  func rewritingInAnAsynchronousClosure() async throws {
    var wrongReads = 0
    for round in 0..<500 {
      var copies: [InjectedValues] = []
      let values = try await InjectedValues._updatingAsynchronously(fileID: #fileID, line: #line) {
        for value in 1...3 {
          $0.readBackCount = round + value
          copies.append($0)
          _ = $0.description
          if value == 2 { await Task.yield() }
        }
      }
      #expect(values[ReadBackCountKey.self] == round + 3)
      for copy in copies where !(0...(round + 3)).contains(copy[ReadBackCountKey.self]) {
        wrongReads += 1
      }
    }
    #expect(wrongReads == 0)
  }
}
