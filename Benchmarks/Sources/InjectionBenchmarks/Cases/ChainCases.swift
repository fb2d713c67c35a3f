import BenchmarkSupport
import Injection

/// Long chains of overrides: many writes to one value, snapshots with many writes, and scope
/// entry under parents with many visible overrides. Each long case is compared with its short
/// twin: what the length costs. The set-up around a loop is not timed (see `TimedLoop`).
enum ChainCases {
  static let millionWrites = 1_000_000

  static var all: [Benchmark] {
    [manyWritesToSnapshot, manyWritesInUpdate]
      + snapshotPair(
        "scope.bind.snapshot",
        "calling a closure bound to a snapshot with",
        run: bindAndCall
      )
      + snapshotPair(
        "scope.reenter.snapshot",
        "re-entering a snapshot with",
        run: reenter
      )
      + visiblePair("flat", "in one scope", enterUnderOneScope)
      + visiblePair("nested", "in nested scopes of 5", enterUnderScopesOfFive)
      + visiblePair("trap", "in one scope, then 4 nested scopes of 1", enterUnderTrap)
      + visiblePair("snapshot", "in a re-entered snapshot", enterUnderSnapshot)
  }

  // MARK: - Many writes of one key

  /// Writes one key of a snapshot value a million times, then releases the value.
  static var manyWritesToSnapshot: Benchmark {
    Benchmark(
      "chain.one-million-writes",
      "1,000,000 writes of 1 key to a snapshot value, then its release (ns per write)",
      group: Group.chains,
      fixedIterations: millionWrites
    ) { iterations in
      var values = InjectedValues.current
      for index in 0..<iterations {
        values.service = index & 1 == 0 ? Services.mock : Services.live
      }
      blackHole(values)
    }
  }

  /// Writes one key a million times in one update closure, then ends the scope.
  static var manyWritesInUpdate: Benchmark {
    Benchmark(
      "chain.one-million-writes.update-closure",
      "1,000,000 writes of 1 key in one update closure, then the scope (ns per write)",
      group: Group.chains,
      baseline: "chain.one-million-writes",
      fixedIterations: millionWrites
    ) { iterations in
      withInjectedValues {
        for index in 0..<iterations {
          $0.service = index & 1 == 0 ? Services.mock : Services.live
        }
      } operation: {
      }
    }
  }

  // MARK: - Snapshots with many writes

  /// Two cases: a snapshot written 4 times, and 64 times, with distinct filler keys outside an
  /// update closure, then used by `run` in the loop.
  private static func snapshotPair(
    _ id: String,
    _ title: String,
    run: @escaping (_ snapshot: InjectedValues, _ iterations: Int) -> Void
  ) -> [Benchmark] {
    let four = Benchmark(
      "\(id).4-writes",
      "\(title) 4 writes",
      group: Group.chains,
      baseline: BaselineID.withValue
    ) { iterations in
      run(snapshot(writes: 4), iterations)
    }
    let many = Benchmark(
      "\(id).64-writes",
      "\(title) 64 writes",
      group: Group.chains,
      baseline: four.id,
      target: .atMost(1.5, "≤ 1.5× the 4-write snapshot")
    ) { iterations in
      run(snapshot(writes: 64), iterations)
    }
    return [four, many]
  }

  /// A snapshot taken outside any scope, then written `writes` times with distinct keys.
  private static func snapshot(writes: Int) -> InjectedValues {
    var values = InjectedValues.current
    for filler in 0..<writes { Fillers.override(filler, in: &values) }
    return values
  }

  private static func bindAndCall(_ snapshot: InjectedValues, _ iterations: Int) {
    let run = snapshot.bind { blackHole(1) }
    TimedLoop.run {
      for _ in 0..<iterations { run() }
    }
  }

  private static func reenter(_ snapshot: InjectedValues, _ iterations: Int) {
    TimedLoop.run {
      for _ in 0..<iterations {
        withInjectedValues(snapshot) {}
      }
    }
  }

  // MARK: - Scope entry under many visible overrides

  /// Two cases: entering and leaving a scope with 1 override, under parents that `surround`
  /// sets up once with 4 visible overrides, and with 250.
  private static func visiblePair(
    _ shape: String,
    _ title: String,
    _ surround: @escaping (_ overrides: Int, _ loop: () -> Void) -> Void
  ) -> [Benchmark] {
    func benchmark(_ overrides: Int, baseline: String?, target: Target?) -> Benchmark {
      Benchmark(
        "scope.enter.visible-\(overrides).\(shape)",
        "scope entry, 1 override, under \(overrides) visible overrides \(title)",
        group: Group.chains,
        baseline: baseline,
        target: target
      ) { iterations in
        surround(overrides) { TimedLoop.run { enterWithOneOverride(iterations) } }
      }
    }
    let four = benchmark(4, baseline: "scope.enter.1-override", target: nil)
    let many = benchmark(
      250,
      baseline: four.id,
      target: .atMost(1.5, "≤ 1.5× with 4 visible")
    )
    return [four, many]
  }

  /// The measured loop: as `scope.enter.1-override`.
  private static func enterWithOneOverride(_ iterations: Int) {
    let mock = Services.mock
    for _ in 0..<iterations {
      withInjectedValues {
        $0.service = mock
      } operation: {
      }
    }
  }

  private static func enterUnderOneScope(_ overrides: Int, _ loop: () -> Void) {
    Fillers.withScopes(overriding: 0..<overrides, perScope: overrides, loop)
  }

  private static func enterUnderScopesOfFive(_ overrides: Int, _ loop: () -> Void) {
    Fillers.withScopes(overriding: 0..<overrides, perScope: 5, loop)
  }

  /// The outer scope's overrides, then 4 single ones above them: the shape that once rebuilt
  /// an index on every entry.
  private static func enterUnderTrap(_ overrides: Int, _ loop: () -> Void) {
    let outer = overrides - 4
    Fillers.withScopes(overriding: 0..<outer, perScope: max(outer, 1)) {
      Fillers.withScopes(overriding: outer..<overrides, perScope: 1, loop)
    }
  }

  private static func enterUnderSnapshot(_ overrides: Int, _ loop: () -> Void) {
    var values = InjectedValues.current
    for number in 0..<overrides { Fillers.overrideAmong256(number, in: &values) }
    withInjectedValues(values, operation: loop)
  }
}
