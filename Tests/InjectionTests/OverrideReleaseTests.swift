import Testing

@testable import Injection

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Every key here is private to this file: tests elsewhere never see its global values.

/// An override heavy enough that leaking it shows in the heap.
private final class Ballast: Sendable {
  let bytes: [UInt8]
  init(byteCount: Int) { bytes = [UInt8](repeating: 1, count: byteCount) }
}

private struct BallastKey: InjectionKey {
  static let currentValue = Ballast(byteCount: 0)
}

extension InjectedValues {

  fileprivate var ballast: Ballast {
    get { self[BallastKey.self] }
    set { self[BallastKey.self] = newValue }
  }
}

@Suite("Overrides do not leak")
struct OverrideReleaseTests {
  @Test("After 10,000 scopes, every override object has been released")
  func overridesAreReleased() async {
    let outcome = await runScopes(10_000, ballastBytes: 64)
    print(
      """
      Reliability: 10000 scopes, \(outcome.survivors) override objects still alive, \
      \(outcome.misreads) uses that missed the override
      """
    )
    #expect(outcome.misreads == 0)
    #expect(outcome.survivors == 0)
  }

  @Test(
    "After 10,000 scopes, the heap in use returns to its baseline",
    .enabled(if: HeapGauge.isAccurate, "needs glibc's own allocator (not under a sanitizer)")
  )
  func memoryReturnsToBaseline() async throws {
    let ballastBytes = 64 * 1024
    let scopes = 10_000
    _ = await runScopes(1_000, ballastBytes: ballastBytes)  // warm up the runtime and the heap
    let baseline = try #require(HeapGauge.bytesInUse())
    let outcome = await runScopes(scopes, ballastBytes: ballastBytes)
    let after = try #require(HeapGauge.bytesInUse())

    // Were the overrides leaked, the heap would grow by about 625 MiB. The tolerance is wide,
    // because the tests running beside this one allocate too.
    let leakedIfAll = scopes * ballastBytes
    let tolerance = 128 * 1024 * 1024
    let growth = after - baseline
    print(
      """
      Reliability: heap in use \(baseline / 1024) KiB before \(scopes) scopes of \
      \(ballastBytes / 1024) KiB overrides, \(after / 1024) KiB after: growth \(growth / 1024) KiB \
      (tolerance \(tolerance / 1024) KiB; \(leakedIfAll / 1024) KiB if every override leaked)
      """
    )
    #expect(outcome.survivors == 0)
    #expect(growth < tolerance)
  }

  /// Runs `count` scopes, 16 at a time, each overriding `ballast` with a new object and using it
  /// in the ways that hold on to values: `async let`, `Task {}`, a snapshot, a bound closure
  /// and a nested scope. Returns how many of those objects are still alive afterwards, and how
  /// many uses did not see the override.
  private func runScopes(
    _ count: Int,
    ballastBytes: Int
  ) async -> (survivors: Int, misreads: Int) {
    let width = 16
    let results = await withTaskGroup(of: (WeakBallast, sawOverride: Bool).self) { group in
      var started = 0
      var results: [(WeakBallast, sawOverride: Bool)] = []
      while started < count || !group.isEmpty {
        if started < count, started - results.count < width {
          group.addTask { await Self.useScope(ballastBytes: ballastBytes) }
          started += 1
        } else if let result = await group.next() {
          results.append(result)
        }
      }
      return results
    }
    return (
      results.filter { $0.0.object != nil }.count,
      results.filter { !$0.sawOverride }.count
    )
  }

  private static func useScope(ballastBytes: Int) async -> (WeakBallast, sawOverride: Bool) {
    let ballast = Ballast(byteCount: ballastBytes)
    let reference = WeakBallast(object: ballast)
    let seen = await withInjectedValues {
      $0.ballast = ballast
    } operation: {
      async let fromChild = InjectedValues[\.ballast] === ballast
      let fromTask = await Task { InjectedValues[\.ballast] === ballast }.value
      let snapshot = InjectedValues.current
      let bound = snapshot.bind { InjectedValues[\.ballast] === ballast }
      let nested = await withInjectedValues {
        $0.scopeLabel = "nested"
      } operation: {
        InjectedValues[\.ballast] === ballast
      }
      return await fromChild && fromTask && bound() && nested
    }
    return (reference, seen)
  }
}

// MARK: - Helpers

/// A weak reference to an override, to see whether anything still holds it.
private struct WeakBallast: Sendable {
  weak var object: Ballast?
}

/// Measures the bytes the C heap has handed out and not taken back.
///
/// glibc's `mallinfo2` would give this directly, but `malloc.h` is not part of the Glibc module,
/// so the figure comes from `malloc_info`, looked up at run time, which prints the same totals.
private enum HeapGauge {
  /// Whether the figure follows allocations: not under a sanitizer, whose allocator glibc does
  /// not see, and not where glibc is absent.
  static let isAccurate: Bool = {
    guard let before = bytesInUse() else { return false }
    let probeBytes = 8 * 1024 * 1024
    let probe = UnsafeMutableRawPointer.allocate(byteCount: probeBytes, alignment: 16)
    defer { probe.deallocate() }
    guard let during = bytesInUse() else { return false }
    return during - before >= probeBytes
  }()

  /// The heap in use, in bytes; `nil` where it cannot be measured.
  static func bytesInUse() -> Int? {
    #if canImport(Glibc)
      typealias MallocInfo = @convention(c) (Int32, UnsafeMutablePointer<FILE>?) -> Int32
      guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "malloc_info") else { return nil }
      let mallocInfo = unsafeBitCast(symbol, to: MallocInfo.self)
      var buffer: UnsafeMutablePointer<CChar>?
      var size = 0
      guard let stream = open_memstream(&buffer, &size) else { return nil }
      let status = mallocInfo(0, stream)
      fclose(stream)
      defer { free(buffer) }
      guard status == 0, let buffer else { return nil }
      // After the last arena come the process totals, one per line, such as
      // <system type="current" size="135168"/>. In use = obtained - free + mmapped.
      let lines = String(cString: buffer).split(separator: "\n")
      guard let lastArena = lines.lastIndex(of: "</heap>") else { return nil }
      var totals: [String: Int] = [:]
      for line in lines[(lastArena + 1)...] {
        // Such as ["<system type=", "current", " size=", "135168", "/>"]: the size comes last.
        let parts = line.split(separator: "\"")
        if parts.count >= 5, let value = Int(parts[parts.count - 2]) {
          totals[String(parts[1])] = value
        }
      }
      guard let current = totals["current"], let fast = totals["fast"], let rest = totals["rest"],
        let mmapped = totals["mmap"]
      else { return nil }
      return current - fast - rest + mmapped
    #else
      return nil
    #endif
  }
}
