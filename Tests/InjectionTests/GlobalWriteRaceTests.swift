import Dispatch
import Testing

@testable import Injection

// Every key here is private to this file: tests elsewhere never see its global values.

/// A value whose identity says which write it came from.
private final class Marker: Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}

private struct RacedKey: InjectionKey {
  static let currentValue = Marker("default")
}

extension InjectedValues {
  fileprivate var raced: Marker {
    get { self[RacedKey.self] }
    set { self[RacedKey.self] = newValue }
  }

}

/// Reads through the wrapper, as app code does.
private struct RacedReader: Sendable {
  @Injected(\.raced) var raced
}

@Suite("Global writes racing scoped reads")
struct GlobalWriteRaceTests {
  @Test("Global writes racing 10,000 scoped reads: each read sees the old or the new value")
  func globalWritesRacingScopedReads() async {
    defer { removeGlobal(RacedKey.self) }
    let (old, new) = (Marker("old"), Marker("new"))
    InjectedValues[\.raced] = old

    // The writer flips the global value on its own thread until the readers are done.
    let writer = GlobalFlipper(old: old, new: new)
    async let writes = writer.run()
    await writer.waitUntilStarted()

    let tasks = 100
    let readsPerTask = 100
    let tally = await withTaskGroup(of: RaceTally.self) { group in
      for task in 0..<tasks {
        group.addTask {
          // One task in ten also overrides the raced key: global writes must never reach it.
          let own = task.isMultiple(of: 10) ? Marker("scope-\(task)") : nil
          return await withInjectedValues {
            $0.scopeLabel = "task-\(task)"
            if let own { $0.raced = own }
          } operation: {
            var tally = RaceTally()
            let reader = RacedReader()
            for read in 0..<readsPerTask {
              let seen = read.isMultiple(of: 2) ? InjectedValues[\.raced] : reader.raced
              let label = InjectedValues[\.scopeLabel]
              if let own {
                if seen === own { tally.ownOverride += 1 } else { tally.foreign += 1 }
              } else if seen === old {
                tally.old += 1
              } else if seen === new {
                tally.new += 1
              } else {
                tally.foreign += 1
              }
              if label != "task-\(task)" { tally.wrongLabel += 1 }
              if read.isMultiple(of: 25) { await Task.yield() }
            }
            return tally
          }
        }
      }
      return await group.reduce(into: RaceTally()) { $0.merge($1) }
    }
    writer.stop()
    let (writeCount, last) = await writes

    print(
      """
      Reliability: \(tally.total) scoped reads against \(writeCount) global writes: \
      \(tally.old) saw the old value, \(tally.new) the new, \(tally.ownOverride) their own \
      override, \(tally.foreign) another value
      """
    )
    #expect(tally.total == tasks * readsPerTask)
    #expect(tally.foreign == 0)
    #expect(tally.wrongLabel == 0, "a scope's other override was never lost")
    #expect(tally.ownOverride == tasks / 10 * readsPerTask)
    #expect(writeCount > 0)
    #expect(InjectedValues[\.raced] === last, "the last global write is what remains")
  }
}

// MARK: - Helpers

/// What the racing readers saw.
private struct RaceTally: Sendable {
  var old = 0
  var new = 0
  var ownOverride = 0
  var foreign = 0
  var wrongLabel = 0

  var total: Int { old + new + ownOverride + foreign }

  mutating func merge(_ other: RaceTally) {
    old += other.old
    new += other.new
    ownOverride += other.ownOverride
    foreign += other.foreign
    wrongLabel += other.wrongLabel
  }
}

/// Flips the global value of `RacedKey` between two markers on a thread of its own.
private final class GlobalFlipper: @unchecked Sendable {
  // Safe: `writes` and `isStopped` are touched only under `lock`; the markers are immutable.
  private let lock = Lock()
  private var writes = 0
  private var isStopped = false
  private let old: Marker
  private let new: Marker

  /// The writer gives up after this many writes, so that a broken test cannot spin forever.
  static let maximumWrites = 5_000_000

  init(old: Marker, new: Marker) {
    self.old = old
    self.new = new
  }

  /// Writes until stopped; returns the number of writes and the last value written.
  func run() async -> (writes: Int, last: Marker) {
    await withCheckedContinuation { continuation in
      DispatchQueue(label: "GlobalFlipper").async {
        var last = self.old
        var count = 0
        while count < Self.maximumWrites, !self.lock.withLock({ self.isStopped }) {
          last = count.isMultiple(of: 2) ? self.new : self.old
          InjectedValues[\.raced] = last
          count += 1
          self.lock.withLock { self.writes = count }
        }
        continuation.resume(returning: (count, last))
      }
    }
  }

  /// Returns once the first write is done, or after about ten seconds in any case.
  func waitUntilStarted() async {
    var naps = 0
    while naps < 10_000, lock.withLock({ writes == 0 }) {
      try? await Task.sleep(nanoseconds: 1_000_000)
      naps += 1
    }
  }

  func stop() { lock.withLock { isStopped = true } }
}
