import Testing

@testable import Injection

// Random programs of nested scopes, update closures, global writes and resets, snapshots and
// reads, run against the library and against a reference model of the rules in a few lines.
// Seeded, so a failure names the seed that reproduces it.

private struct ModelKey0: InjectionKey { static let currentValue = 0 }
private struct ModelKey1: InjectionKey { static let currentValue = 100 }
private struct ModelKey2: InjectionKey { static let currentValue = 200 }
private struct ModelKey3: InjectionKey { static let currentValue = 300 }

extension InjectedValues {
  fileprivate var model0: Int {
    get { self[ModelKey0.self] }
    set { self[ModelKey0.self] = newValue }
  }

  fileprivate var model1: Int {
    get { Self[ModelKey1.self] }
    set { Self[ModelKey1.self] = newValue }
  }

  fileprivate var model2: Int {
    get { self[ModelKey2.self] }
    set { self[ModelKey2.self] = newValue }
  }

  fileprivate var model3: Int {
    get { Self[ModelKey3.self] }
    set { Self[ModelKey3.self] = newValue }
  }
}

/// The keys, their defaults, and their accessors (two instance-style, two seed-style).
private let modelKeys: [(path: any WritableKeyPath<InjectedValues, Int> & Sendable, default: Int)] =
  [
    (\.model0, 0), (\.model1, 100), (\.model2, 200), (\.model3, 300),
  ]

private struct ModelReader {
  @Injected(\.model0) var model0
  @Injected(\.model1) var model1
  @Injected(\.model2) var model2
  @Injected(\.model3) var model3

  func read(_ key: Int) -> Int {
    switch key {
    case 0: model0
    case 1: model1
    case 2: model2
    default: model3
    }
  }
}

/// A small, seeded pseudo-random generator (SplitMix64), so that runs are reproducible.
private struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// The reference model: what a read must see.
private struct Model {
  /// The overrides of each open scope, outermost first.
  var scopes: [[Int: Int]] = []
  var globals: [Int: Int] = [:]

  func value(of key: Int) -> Int {
    for scope in scopes.reversed() { if let value = scope[key] { return value } }
    return globals[key] ?? modelKeys[key].default
  }

  /// The overrides a snapshot taken now holds.
  var visible: [Int: Int] {
    scopes.reduce(into: [:]) { merged, scope in merged.merge(scope) { $1 } }
  }
}

/// Runs random steps against the library and the model, and counts disagreements.
private struct ModelRun {
  var random: SeededGenerator
  var model = Model()
  var snapshots: [(values: InjectedValues, overrides: [Int: Int])] = []
  var checks = 0
  var mismatches: [String] = []
  let allowsGlobals: Bool

  init(seed: UInt64, allowsGlobals: Bool) {
    random = SeededGenerator(state: seed)
    self.allowsGlobals = allowsGlobals
  }

  mutating func check(_ key: Int, _ seen: Int, _ expected: Int, _ how: String) {
    checks += 1
    if seen != expected { mismatches.append("\(how) of key \(key): \(seen), expected \(expected)") }
  }

  /// Reads every key in a random way and compares with `expected`.
  mutating func readAll(expected: (Int) -> Int, context: String) {
    let reader = ModelReader()
    for key in modelKeys.indices {
      switch Int.random(in: 0..<4, using: &random) {
      case 0:
        check(key, InjectedValues[modelKeys[key].path], expected(key), "\(context): subscript")
      case 1: check(key, reader.read(key), expected(key), "\(context): @Injected")
      case 2:
        check(
          key,
          InjectedValues.current[keyPath: modelKeys[key].path],
          expected(key),
          "\(context): current"
        )
      default:
        check(
          key,
          InjectedValues(head: InjectedValues._visibleHead)[keyPath: modelKeys[key].path],
          expected(key),
          "\(context): values"
        )
      }
    }
  }

  mutating func run(depth: Int) {
    let steps = Int.random(in: 1...6, using: &random)
    for _ in 0..<steps {
      switch Int.random(in: 0..<10, using: &random) {
      case 0...3 where depth < 6:
        enterScope(depth: depth)
      case 4 where allowsGlobals:
        let key = Int.random(in: 0..<modelKeys.count, using: &random)
        let value = Int.random(in: 1_000..<2_000, using: &random)
        InjectedValues[modelKeys[key].path] = value
        model.globals[key] = value
      case 5 where allowsGlobals:
        let key = Int.random(in: 0..<modelKeys.count, using: &random)
        InjectedValues.resetGlobal(modelKeys[key].path)
        model.globals[key] = nil
      case 6:
        snapshots.append((InjectedValues.current, model.visible))
      case 7 where !snapshots.isEmpty:
        reenterSnapshot()
      default:
        readAll(expected: model.value(of:), context: "depth \(depth)")
      }
    }
  }

  mutating func enterScope(depth: Int) {
    var writes: [Int: Int] = [:]
    let count = Int.random(in: 0...5, using: &random)
    for _ in 0..<count {
      writes[Int.random(in: 0..<modelKeys.count, using: &random)] = Int.random(
        in: 0..<1_000,
        using: &random
      )
    }
    let order = Array(writes).shuffled(using: &random)
    var run = self
    withInjectedValues { values in
      for (key, value) in order {
        values[keyPath: modelKeys[key].path] = value
        // Inside the update closure, reads see the values being built.
        run.check(key, InjectedValues[modelKeys[key].path], value, "update closure")
      }
    } operation: {
      run.model.scopes.append(writes)
      run.run(depth: depth + 1)
      run.model.scopes.removeLast()
    }
    self = run
  }

  mutating func reenterSnapshot() {
    let index = Int.random(in: 0..<snapshots.count, using: &random)
    var (values, overrides) = snapshots[index]
    // A write to the snapshot itself, outside any update closure, sometimes several times.
    for _ in 0..<Int.random(in: 0...3, using: &random) {
      let key = Int.random(in: 0..<modelKeys.count, using: &random)
      let value = Int.random(in: 5_000..<6_000, using: &random)
      if key.isMultiple(of: 2) {
        values[keyPath: modelKeys[key].path] = value
        overrides[key] = value
      } else if allowsGlobals {
        // A seed-style setter outside an update closure sets the global value instead.
        values[keyPath: modelKeys[key].path] = value
        model.globals[key] = value
      }
    }
    var run = self
    withInjectedValues(values) {
      let saved = run.model.scopes
      run.model.scopes = [overrides]
      run.readAll(expected: run.model.value(of:), context: "snapshot")
      run.model.scopes = saved
    }
    self = run
  }
}

@Suite("Model", .serialized)
struct ModelTests {
  // The suite is serialized because its programs set the model keys' global values: no two
  // tests here overlap, and no other test reads these keys.

  @Test(
    "Random programs of scopes, global writes, resets and snapshots agree with the model",
    arguments: 1...40
  )
  func programsAgree(seed: UInt64) {
    defer { for key in modelKeys { InjectedValues.resetGlobal(key.path) } }
    var run = ModelRun(seed: seed, allowsGlobals: true)
    run.run(depth: 0)
    #expect(run.mismatches.isEmpty, "seed \(seed): \(run.mismatches.prefix(5))")
    #expect(run.checks > 0)
  }

  @Test("200 random programs running at once on many threads agree with the model")
  func concurrentProgramsAgree() async {
    let results = await withTaskGroup(of: (seed: UInt64, checks: Int, mismatches: [String]).self) {
      group in
      for seed in UInt64(1_000)..<1_200 {
        group.addTask {
          var run = ModelRun(seed: seed, allowsGlobals: false)
          run.run(depth: 0)
          return (seed, run.checks, run.mismatches)
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    let failed = results.filter { !$0.mismatches.isEmpty }
    #expect(
      failed.isEmpty,
      "\(failed.prefix(3).map { "seed \($0.seed): \($0.mismatches.prefix(3))" })"
    )
    #expect(results.map(\.checks).reduce(0, +) > 1_000)
  }
}
