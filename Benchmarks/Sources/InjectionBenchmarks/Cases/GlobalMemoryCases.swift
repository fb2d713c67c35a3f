import BenchmarkSupport
import Injection

/// The memory that global values take: thousands of distinct keys, each set globally once.
///
/// The key types come from type-level recursion: `GlobalFillerKey<Bit0<Bit1<…<Root>…>>>`, 14
/// bits deep, 16,384 distinct types. The case runs only in child processes (see
/// `GlobalMemoryReport`): the global values it sets stay for the whole process.
enum GlobalMemoryCases {
  /// The depth of the recursion: 2^14 = 16,384 key types.
  static let bits = 14
  static let keyTypes = 1 << bits
  /// The keys the measured child sets.
  static let keys = 16_000

  static var all: [Benchmark] { [distinctKeys] }

  static var distinctKeys: Benchmark {
    Benchmark(
      "memory.global.distinct-keys",
      "distinct keys set globally, 1 value each",
      group: Group.globalMemory,
      target: .atMost(64 * 1_048_576, "≤ 64 MiB over baseline", in: .memory),
      phase: .childProcess
    ) { iterations in
      setGlobally(iterations)
    }
  }

  /// Visits every key type, so that every child makes the same type metadata, and sets the
  /// first `count` keys globally.
  static func setGlobally(_ count: Int) {
    precondition(count <= keyTypes, "there are \(keyTypes) global filler keys")
    var remaining = count
    visit(GlobalFillerRoot.self, depth: bits, remaining: &remaining)
  }

  private static func visit<T>(_ type: T.Type, depth: Int, remaining: inout Int) {
    guard depth > 0 else {
      touch(GlobalFillerKey<T>.self)
      if remaining > 0 {
        InjectedValues[GlobalFillerKey<T>.self] = 1
        remaining -= 1
      }
      return
    }
    visit(Bit0<T>.self, depth: depth - 1, remaining: &remaining)
    visit(Bit1<T>.self, depth: depth - 1, remaining: &remaining)
  }

  /// Makes the key's metadata and conformance, as setting it would, without setting it.
  @inline(never)
  private static func touch<Key: InjectionKey>(_ key: Key.Type) {
    blackHole(Key.currentValue)
  }
}

/// The root and the type-level bits of the global filler keys.
enum GlobalFillerRoot {}
struct Bit0<T> {}
struct Bit1<T> {}

/// One of 16,384 keys, told apart by `T`, a path of bits.
struct GlobalFillerKey<T>: InjectionKey {
  static var currentValue: Int { 0 }
}
