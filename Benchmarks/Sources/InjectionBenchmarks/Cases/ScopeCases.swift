import BenchmarkSupport
import Injection

/// Entering a scope: with one override, with eight, and re-entering a snapshot.
enum ScopeCases {
  static var all: [Benchmark] {
    [
      enterWithOneOverride, enterWithOneSeedStyleOverride, enterAsyncWithOneOverride,
      enterWithLazyValue, enterWithEightOverrides, reenterSnapshot,
    ]
  }

  static var enterWithOneOverride: Benchmark {
    Benchmark(
      "scope.enter.1-override",
      "scope entry, 1 override",
      group: Group.scopes,
      baseline: BaselineID.withValue,
      target: .atMost(2, "≤ 2× a raw withValue"),
      allocationLimit: 1
    ) { iterations in
      let mock = Services.mock
      for _ in 0..<iterations {
        withInjectedValues {
          $0.service = mock
        } operation: {
        }
      }
    }
  }

  /// The asynchronous scope function, from one task that runs the whole loop. As in the
  /// baseline, the operation is written `{ () async in }` to select the asynchronous overload.
  static var enterAsyncWithOneOverride: Benchmark {
    Benchmark(
      "scope.enter.async.1-override",
      "async scope entry, 1 override, in a task",
      group: Group.scopes,
      baseline: BaselineID.withValueAsync,
      target: .atMost(2, "≤ 2× a raw async withValue")
    ) { iterations in
      let mock = Services.mock
      AsyncWork.run {
        for _ in 0..<iterations {
          await withInjectedValues {
            $0.service = mock
          } operation: { () async in
          }
        }
      }
    }
  }

  /// The same scope, written through a seed-style accessor (`Self[Key.self] = newValue`), whose
  /// write reaches `$0` through the update frame.
  static var enterWithOneSeedStyleOverride: Benchmark {
    Benchmark(
      "scope.enter.1-override.seed-style",
      "scope entry, 1 override through a seed-style setter",
      group: Group.scopes,
      baseline: "scope.enter.1-override",
      allocationLimit: 1
    ) { iterations in
      let mock = Services.mock
      for _ in 0..<iterations {
        withInjectedValues {
          $0.seedStyleService = mock
        } operation: {
        }
      }
    }
  }

  /// The scope declares a lazy value that nothing reads, so it is never built. Its own
  /// allocations are counted over those of a plain override: the cell, and the raw memory that
  /// holds the value and the word that a read of the built value loads atomically.
  static var enterWithLazyValue: Benchmark {
    Benchmark(
      "scope.enter.lazy",
      "scope entry, 1 lazy value, never read",
      group: Group.scopes,
      baseline: "scope.enter.1-override",
      target: .atMost(
        2,
        "no more than a plain override plus the cell and its raw memory",
        in: .allocations
      ),
      allocationLimit: 2
    ) { iterations in
      for _ in 0..<iterations {
        withInjectedValues {
          $0.lazy(\.service, { LiveService(id: 9) }, teardown: { _ in })
        } operation: {
        }
      }
    }
  }

  static var enterWithEightOverrides: Benchmark {
    Benchmark(
      "scope.enter.8-overrides",
      "scope entry, 8 overrides",
      group: Group.scopes,
      baseline: BaselineID.withValue
    ) { iterations in
      let mock = Services.mock
      for _ in 0..<iterations {
        withInjectedValues {
          $0.service = mock
          $0[FillerKey<D0, D1>.self] = mock
          $0[FillerKey<D0, D2>.self] = mock
          $0[FillerKey<D0, D3>.self] = mock
          $0[FillerKey<D0, D4>.self] = mock
          $0[FillerKey<D0, D5>.self] = mock
          $0[FillerKey<D0, D6>.self] = mock
          $0[FillerKey<D0, D7>.self] = mock
        } operation: {
        }
      }
    }
  }

  static var reenterSnapshot: Benchmark {
    Benchmark(
      "scope.snapshot",
      "snapshot re-entry, withInjectedValues(values) {}",
      group: Group.scopes,
      baseline: BaselineID.withValue,
      target: .atMost(2, "≤ 2× a raw withValue")
    ) { iterations in
      let values = withInjectedValues {
        $0.service = Services.mock
      } operation: {
        InjectedValues.current
      }
      for _ in 0..<iterations {
        withInjectedValues(values) {}
      }
    }
  }
}
