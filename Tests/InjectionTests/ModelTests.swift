import Dispatch
import TestSupport
import Testing

@testable import Injection

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Random programs of nested scopes, update closures (with values built on first use, `$0 =
// snapshot`, `$0 = current` and GCD blocks), global writes and resets, snapshots and reads, run
// against the library and against a reference model of the rules in a few lines. Seeded, so a
// failure names the seed that reproduces it. `.ci/model-long.sh` runs the same programs in a
// release build for at least 100,000 scopes (INJECTION_MODEL_SCOPES sets how many).

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
private let modelKeys:
  [(path: any WritableKeyPath<InjectedValues, Int> & Sendable, default: Int, seedStyle: Bool)] = [
    (\.model0, 0, false), (\.model1, 100, true), (\.model2, 200, false), (\.model3, 300, true),
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

/// Counts, per declaration, how often a value built on first use was built and torn down.
private final class LazyLedger: Sendable {
  private let counts = Locked<[Int: (builds: Int, teardowns: Int)]>([:])

  func built(_ serial: Int) { counts.withLock { $0[serial, default: (0, 0)].builds += 1 } }
  func tornDown(_ serial: Int) { counts.withLock { $0[serial, default: (0, 0)].teardowns += 1 } }
  func counts(of serial: Int) -> (builds: Int, teardowns: Int) {
    counts.withLock { $0[serial] ?? (0, 0) }
  }
}

/// One override in the model: its value, and the declaration if it is built on first use.
private struct Entry {
  var value: Int
  var lazy: Int?
}

/// The overrides of one scope; `replacesAll` after `$0 = snapshot`, whose overrides replace the
/// enclosing scopes' instead of layering on them.
private struct ModelScope {
  var entries: [Int: Entry] = [:]
  var replacesAll = false
}

/// The reference model: what a read must see.
private struct Model {
  /// The overrides of each open scope, outermost first.
  var scopes: [ModelScope] = []
  var globals: [Int: Int] = [:]
  /// The declarations whose scope is running, and those whose value has been read.
  var openLazy: Set<Int> = []
  var readLazy: Set<Int> = []

  func visible(_ key: Int) -> Entry? {
    for scope in scopes.reversed() {
      if let entry = scope.entries[key] { return entry }
      if scope.replacesAll { break }
    }
    return nil
  }

  func value(of key: Int) -> Int {
    visible(key)?.value ?? globals[key] ?? modelKeys[key].default
  }

  /// Whether a read of `key` would stop the program: a value built on first use whose scope
  /// has ended, reached through a snapshot.
  func isTornDown(_ key: Int) -> Bool {
    guard let lazy = visible(key)?.lazy else { return false }
    return !openLazy.contains(lazy)
  }

  /// The overrides a snapshot taken now holds.
  var visibleEntries: [Int: Entry] {
    let first = scopes.lastIndex { $0.replacesAll } ?? 0
    return scopes[first...].reduce(into: [:]) { merged, scope in
      merged.merge(scope.entries) { $1 }
    }
  }
}

/// A seed-style write of `value` to model key `key`, as `Self[Key.self] = value`.
private func seedStyleWrite(_ key: Int, _ value: Int) {
  switch key {
  case 0: InjectedValues[ModelKey0.self] = value
  case 1: InjectedValues[ModelKey1.self] = value
  case 2: InjectedValues[ModelKey2.self] = value
  default: InjectedValues[ModelKey3.self] = value
  }
}

/// Sets model key `key` through its accessor's setter alone. (`values[keyPath:] = value` would
/// call the getter first, which stops the program after a `lazy` declaration of the same key in
/// the same update closure: a read before the scope starts.)
private func assign(_ key: Int, _ value: Int, to values: inout InjectedValues) {
  switch key {
  case 0: values.model0 = value
  case 1: values.model1 = value
  case 2: values.model2 = value
  default: values.model3 = value
  }
}

/// Runs random steps against the library and the model, and counts disagreements.
private struct ModelRun {
  var random: SeededGenerator
  var model = Model()
  var snapshots: [(values: InjectedValues, entries: [Int: Entry])] = []
  var checks = 0
  var scopesEntered = 0
  var mismatches: [String] = []
  let allowsGlobals: Bool
  let ledger = LazyLedger()
  var nextSerial = 0

  init(seed: UInt64, allowsGlobals: Bool) {
    random = SeededGenerator(seed: seed)
    self.allowsGlobals = allowsGlobals
  }

  mutating func check(_ key: Int, _ seen: Int, _ expected: Int, _ how: String) {
    checks += 1
    if seen != expected { mismatches.append("\(how) of key \(key): \(seen), expected \(expected)") }
  }

  mutating func random(_ range: Range<Int>) -> Int { Int.random(in: range, using: &random) }

  /// Reads every key in a random way and compares with the model.
  mutating func readAll(context: String) {
    let reader = ModelReader()
    for key in modelKeys.indices where !model.isTornDown(key) {
      let expected = model.value(of: key)
      switch random(0..<4) {
      case 0: check(key, InjectedValues[modelKeys[key].path], expected, "\(context): subscript")
      case 1: check(key, reader.read(key), expected, "\(context): @Injected")
      case 2:
        check(
          key,
          InjectedValues.current[keyPath: modelKeys[key].path],
          expected,
          "\(context): current"
        )
      default:
        check(
          key,
          InjectedValues(head: InjectedValues._visibleHead)[keyPath: modelKeys[key].path],
          expected,
          "\(context): values"
        )
      }
      if let lazy = model.visible(key)?.lazy { model.readLazy.insert(lazy) }
    }
  }

  mutating func run(depth: Int) {
    for _ in 0..<random(1..<7) {
      switch random(0..<10) {
      case 0...3 where depth < 6:
        enterScope(depth: depth)
      case 4 where allowsGlobals:
        let key = random(0..<modelKeys.count)
        let value = random(1_000..<2_000)
        InjectedValues[modelKeys[key].path] = value
        model.globals[key] = value
      case 5 where allowsGlobals:
        let key = random(0..<modelKeys.count)
        InjectedValues.resetGlobal(modelKeys[key].path)
        model.globals[key] = nil
      case 6:
        snapshots.append((InjectedValues.current, model.visibleEntries))
      case 7 where !snapshots.isEmpty:
        reenterSnapshot()
      default:
        readAll(context: "depth \(depth)")
      }
    }
  }

  /// One step of an update closure, chosen before it runs.
  enum UpdateStep {
    case write(key: Int, value: Int)
    case lazy(key: Int, value: Int, serial: Int)
    case assignCurrent
    case assignSnapshot(Int)
    case synchronousBlockRead(key: Int)
    case synchronousBlockWrite(key: Int, value: Int)
    case otherThreadRead(key: Int)
  }

  mutating func planUpdate() -> [UpdateStep] {
    (0..<random(0..<7)).map { _ in
      let key = random(0..<modelKeys.count)
      switch random(0..<12) {
      case 0...4: return .write(key: key, value: random(0..<1_000))
      case 5, 6:
        nextSerial += 1
        return .lazy(key: key, value: random(3_000..<4_000), serial: nextSerial)
      case 7: return .assignCurrent
      case 8 where !snapshots.isEmpty: return .assignSnapshot(random(0..<snapshots.count))
      case 9: return .synchronousBlockRead(key: key)
      case 10: return .synchronousBlockWrite(key: key, value: random(4_000..<5_000))
      default: return .otherThreadRead(key: key)
      }
    }
  }

  mutating func enterScope(depth: Int) {
    let plan = planUpdate()
    var run = self
    /// What the closure's builder holds: what seed-style setters write into and every read in
    /// the closure sees (Rules.md, "Update closures").
    var building = ModelScope()
    /// What `$0` holds after it was assigned a snapshot; `nil` while it refers to the builder.
    var assigned: ModelScope?
    /// The seed-style writes of the closure, applied on top of `assigned` when it returns.
    var seedWrites: [Int: Entry] = [:]
    /// The declarations of this closure.
    var owned: Set<Int> = []
    let ledger = self.ledger
    withInjectedValues { values in
      /// What a read of `key` sees here, or `nil` if it would stop the program: a declaration
      /// of this closure (its scope has not started) or one whose scope has ended. A read of a
      /// value built on first use builds it, so it is marked as read.
      func expected(_ key: Int) -> Int? {
        guard let entry = building.entries[key] ?? run.model.visible(key) else {
          return run.model.globals[key] ?? modelKeys[key].default
        }
        if let lazy = entry.lazy {
          guard !owned.contains(lazy), run.model.openLazy.contains(lazy) else { return nil }
          run.model.readLazy.insert(lazy)
        }
        return entry.value
      }
      /// Records a write through `$0` itself (an instance-style setter, `lazy`).
      func writeToDollarZero(_ key: Int, _ entry: Entry) {
        if assigned == nil {
          building.entries[key] = entry
        } else {
          assigned!.entries[key] = entry
        }
      }
      for step in plan {
        switch step {
        case .write(let key, let value):
          assign(key, value, to: &values)
          if modelKeys[key].seedStyle {
            building.entries[key] = Entry(value: value)
            seedWrites[key] = Entry(value: value)
          } else {
            writeToDollarZero(key, Entry(value: value))
          }
          if let expected = expected(key) {
            run.check(key, InjectedValues[modelKeys[key].path], expected, "update closure")
          }
        case .lazy(let key, let value, let serial):
          values.lazy(modelKeys[key].path) {
            ledger.built(serial)
            return value
          } teardown: { _ in
            ledger.tornDown(serial)
          }
          writeToDollarZero(key, Entry(value: value, lazy: serial))
          owned.insert(serial)
        case .assignCurrent:
          values = InjectedValues.current
          assigned = nil
        case .assignSnapshot(let index):
          values = run.snapshots[index].values
          assigned = ModelScope(entries: run.snapshots[index].entries, replacesAll: true)
        case .synchronousBlockRead(let key):
          if let expected = expected(key) {
            let seen = DispatchQueue.global().sync { InjectedValues[modelKeys[key].path] }
            run.check(key, seen, expected, "DispatchQueue.sync in an update closure")
          }
        case .synchronousBlockWrite(let key, let value):
          DispatchQueue(label: "model").sync { seedStyleWrite(key, value) }
          building.entries[key] = Entry(value: value)
          seedWrites[key] = Entry(value: value)
        case .otherThreadRead(let key):
          let done = DispatchSemaphore(value: 0)
          let seen = Locked(0)
          DispatchQueue.global().async {
            seen.withLock { $0 = InjectedValues[modelKeys[key].path] }
            done.signal()
          }
          done.wait()
          run.check(
            key,
            seen.withLock { $0 },
            run.model.globals[key] ?? modelKeys[key].default,
            "a GCD block on another thread, started in an update closure"
          )
        }
      }
      if var assigned {
        assigned.entries.merge(seedWrites) { $1 }
        building = assigned
      }
      // Declarations replaced later in the closure are never built.
      owned = owned.filter { serial in building.entries.values.contains { $0.lazy == serial } }
    } operation: {
      run.scopesEntered += 1
      run.model.scopes.append(building)
      run.model.openLazy.formUnion(owned)
      run.run(depth: depth + 1)
      run.model.openLazy.subtract(owned)
      run.model.scopes.removeLast()
    }
    for serial in owned.sorted() {
      let (builds, teardowns) = ledger.counts(of: serial)
      let read = run.model.readLazy.contains(serial)
      if builds != (read ? 1 : 0) || teardowns != builds {
        run.mismatches.append(
          "lazy declaration \(serial): built \(builds), torn down \(teardowns), read: \(read)"
        )
      }
      run.checks += 1
    }
    self = run
  }

  mutating func reenterSnapshot() {
    let index = random(0..<snapshots.count)
    var (values, entries) = snapshots[index]
    // A write to the snapshot itself, outside any update closure, sometimes several times.
    for _ in 0..<random(0..<4) {
      let key = random(0..<modelKeys.count)
      let value = random(5_000..<6_000)
      if key.isMultiple(of: 2) {
        assign(key, value, to: &values)
        entries[key] = Entry(value: value)
      } else if allowsGlobals {
        // A seed-style setter outside an update closure sets the global value instead.
        assign(key, value, to: &values)
        model.globals[key] = value
      }
    }
    var run = self
    withInjectedValues(values) {
      let saved = run.model.scopes
      run.model.scopes = [ModelScope(entries: entries, replacesAll: true)]
      run.readAll(context: "snapshot")
      run.model.scopes = saved
    }
    self = run
  }
}

/// How many scopes the long run enters: `INJECTION_MODEL_SCOPES`, or a few thousand.
private var longRunScopes: Int {
  getenv("INJECTION_MODEL_SCOPES").flatMap { Int(String(cString: $0)) } ?? 3_000
}

/// Runs `body` with the debug messages of update closures collected instead of printed: the random
/// programs assign snapshots to `$0` and use seed-style accessors after it on purpose, which debug
/// builds point out (UpdateClosureMessagesTests checks the message itself).
private func collectingUpdateClosureMessages<Result>(_ body: () -> Result) -> Result {
  #if DEBUG
    InjectedValues.$updateClosureMessages.withValue({ _ in }, operation: body)
  #else
    body()
  #endif
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
    collectingUpdateClosureMessages { run.run(depth: 0) }
    #expect(run.mismatches.isEmpty, "seed \(seed): \(run.mismatches.prefix(5))")
    #expect(run.checks > 0)
  }

  @Test("Programs agree with the model over many scopes (INJECTION_MODEL_SCOPES of them)")
  func longRunAgrees() {
    defer { for key in modelKeys { InjectedValues.resetGlobal(key.path) } }
    let target = longRunScopes
    var scopes = 0
    var checks = 0
    var failures: [String] = []
    var seed = UInt64(10_000)
    while scopes < target && failures.count < 5 {
      var run = ModelRun(seed: seed, allowsGlobals: true)
      collectingUpdateClosureMessages { run.run(depth: 0) }
      scopes += run.scopesEntered
      checks += run.checks
      failures += run.mismatches.prefix(2).map { "seed \(seed): \($0)" }
      for key in modelKeys { InjectedValues.resetGlobal(key.path) }
      seed += 1
    }
    print("Model: \(scopes) scopes, \(checks) checks, \(failures.count) mismatches")
    #expect(failures.isEmpty, "\(failures)")
    #expect(scopes >= target)
  }

  @Test("200 random programs running at once on many threads agree with the model")
  func concurrentProgramsAgree() async {
    let results = await withTaskGroup(of: (seed: UInt64, checks: Int, mismatches: [String]).self) {
      group in
      for seed in UInt64(1_000)..<1_200 {
        group.addTask {
          var run = ModelRun(seed: seed, allowsGlobals: false)
          collectingUpdateClosureMessages { run.run(depth: 0) }
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
