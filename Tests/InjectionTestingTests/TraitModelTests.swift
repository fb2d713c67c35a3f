import TestSupport
import Testing

@testable import Injection
@testable import InjectionTesting

// Random programs of the two traits, in both orders: which keys the `.injecting` update
// overrides (plainly or with `lazy`), which keys `.strictInjection` allows, whether the update
// writes a global value, and which keys the test reads. A reference model says which strict-mode
// issues must be recorded; the test compares. Seeded, so a failure names the seed.

private struct TraitKey0: InjectionKey { static let currentValue = 0 }
private struct TraitKey1: InjectionKey { static let currentValue = 1 }
private struct TraitKey2: InjectionKey { static let currentValue = 2 }
private struct TraitKey3: InjectionKey { static let currentValue = 3 }
private struct TraitGlobalKey: InjectionKey { static let currentValue = 0 }

extension InjectedValues {
  fileprivate var trait0: Int {
    get { self[TraitKey0.self] }
    set { self[TraitKey0.self] = newValue }
  }
  fileprivate var trait1: Int {
    get { Self[TraitKey1.self] }
    set { Self[TraitKey1.self] = newValue }
  }
  fileprivate var trait2: Int {
    get { self[TraitKey2.self] }
    set { self[TraitKey2.self] = newValue }
  }
  fileprivate var trait3: Int {
    get { Self[TraitKey3.self] }
    set { Self[TraitKey3.self] = newValue }
  }
  fileprivate var traitGlobal: Int {
    get { self[TraitGlobalKey.self] }
    set { self[TraitGlobalKey.self] = newValue }
  }
}

private let traitKeys: [(path: any WritableKeyPath<InjectedValues, Int> & Sendable, name: String)] =
  [
    (\.trait0, "TraitKey0"), (\.trait1, "TraitKey1"), (\.trait2, "TraitKey2"),
    (\.trait3, "TraitKey3"),
  ]

/// The key type of model key `index`.
private func keyType(_ index: Int) -> any InjectionKey.Type {
  switch index {
  case 0: TraitKey0.self
  case 1: TraitKey1.self
  case 2: TraitKey2.self
  default: TraitKey3.self
  }
}

/// One random program and the issues the model expects from it.
private struct TraitProgram {
  var overridden: Set<Int> = []
  var lazily: Set<Int> = []
  var allowed: Set<Int> = []
  var reads: [Int] = []
  var writesGlobal = false
  var strictOutside = true

  init(seed: UInt64) {
    var random = SeededGenerator(seed: seed)
    for key in traitKeys.indices {
      switch Int.random(in: 0..<4, using: &random) {
      case 0: overridden.insert(key)
      case 1: lazily.insert(key)
      default: break
      }
      if Bool.random(using: &random) { allowed.insert(key) }
    }
    reads = (0..<Int.random(in: 0...6, using: &random)).map { _ in
      Int.random(in: 0..<traitKeys.count, using: &random)
    }
    writesGlobal = Int.random(in: 0..<4, using: &random) == 0
    strictOutside = Bool.random(using: &random)
  }

  /// The issues' first sentences, as `StrictReportLog.summaries` gives them, sorted.
  var expected: [String] {
    var issues = Set(
      reads.filter { !overridden.contains($0) && !lazily.contains($0) && !allowed.contains($0) }
        .map { fellBack(traitKeys[$0].name, to: .defaultValue) }
    )
    if writesGlobal {
      issues.insert("Strict injection: this test set the global value of TraitGlobalKey.")
    }
    return issues.sorted()
  }
}

/// `.strictInjection(allowingKeys:)` with the keys of an array (the API is variadic).
private func strictTrait(allowing keys: [any InjectionKey.Type]) -> StrictInjectionTrait {
  switch keys.count {
  case 0: .strictInjection
  case 1: .strictInjection(allowingKeys: keys[0])
  case 2: .strictInjection(allowingKeys: keys[0], keys[1])
  case 3: .strictInjection(allowingKeys: keys[0], keys[1], keys[2])
  default: .strictInjection(allowingKeys: keys[0], keys[1], keys[2], keys[3])
  }
}

@Suite("Trait model", .serialized)
struct TraitModelTests {
  // The test itself is strict, as the tests whose traits the programs stand for are: that is how
  // an `.injecting` trait applied first finds that the test is strict. Its own strict scope is
  // set aside below, so that only the traits applied here are in effect.
  @Test(
    "Random programs of .injecting and .strictInjection, in both orders, agree with the model",
    .strictInjection
  )
  func programsAgree() async throws {
    var failures: [String] = []
    var checked = 0
    for seed in UInt64(1)...30 {
      let program = TraitProgram(seed: seed)
      let log = StrictReportLog()
      let injecting: InjectingTrait = .injecting { values in
        for key in program.overridden { values[keyPath: traitKeys[key].path] = 10 + key }
        for key in program.lazily {
          values.lazy(traitKeys[key].path) { 20 + key }
        }
        if program.writesGlobal { InjectedValues[\.traitGlobal] = 1 }  // global, even here
      }
      let strict = strictTrait(allowing: program.allowed.sorted().map(keyType))
      let body: @Sendable () async throws -> Void = {
        for key in program.reads {
          let value = InjectedValues[traitKeys[key].path]
          let expected =
            program.overridden.contains(key)
            ? 10 + key : program.lazily.contains(key) ? 20 + key : key
          if value != expected { Issue.record("seed \(seed): key \(key) read \(value)") }
        }
      }
      try await log.capture {
        // No strict observer around the traits but the ones applied here.
        try await withInjectedValues(InjectedValues()) {
          let test = Test.current!
          if program.strictOutside {
            try await strict.provideScope(for: test, testCase: Test.Case.current) {
              try await injecting.provideScope(
                for: test,
                testCase: Test.Case.current,
                performing: body
              )
            }
          } else {
            try await injecting.provideScope(for: test, testCase: Test.Case.current) {
              try await strict.provideScope(
                for: test,
                testCase: Test.Case.current,
                performing: body
              )
            }
          }
          InjectedValues.resetGlobals(of: [TraitGlobalKey.self])  // outside strict mode
        }
      }
      let seen = log.summaries.sorted()
      if seen != program.expected {
        failures.append("seed \(seed): recorded \(seen), expected \(program.expected)")
      }
      checked += 1
    }
    #expect(failures.isEmpty, "\(failures.prefix(3))")
    #expect(checked == 30)
  }
}
