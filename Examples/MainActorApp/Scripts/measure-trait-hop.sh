#!/usr/bin/env bash
# What running `.injecting` update closures on the main actor costs parallel tests. One test,
# built in release mode twice, against this repository's InjectionTesting and against a copy
# whose update closures are nonisolated (the trait before it hopped), runs the trait's scope
# 20,000 times, 1, 8 and 64 at a time, then beside busy main-actor work, and prints the wall
# time per case; the two builds run alternately. It asserts nothing about the times.
# Usage: bash Examples/MainActorApp/Scripts/measure-trait-hop.sh [runs]
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
runs="${1:-3}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Two copies of the library's sources: as they are, and with the trait's closures nonisolated.
for variant in hop nohop; do
  mkdir -p "$work/lib-$variant"
  (cd "$root" && git ls-files Package.swift Sources | tar -cf - -T -) | tar -xf - -C "$work/lib-$variant"
done
sed -i 's/@MainActor @Sendable (inout InjectedValues)/@Sendable (inout InjectedValues)/; s/      isolation: MainActor.shared$/      isolation: nil/' \
  "$work/lib-nohop/Sources/InjectionTesting/InjectingTrait.swift"
if grep -q "@MainActor @Sendable" "$work/lib-nohop/Sources/InjectionTesting/InjectingTrait.swift"; then
  echo "error: could not make the copy's update closures nonisolated" >&2
  exit 1
fi

for variant in hop nohop; do
  pkg="$work/tests-$variant"
  mkdir -p "$pkg/Tests/HopTests"
  cat >"$pkg/Package.swift" <<MANIFEST
// swift-tools-version:6.0
import PackageDescription
let package = Package(
  name: "HopCost",
  dependencies: [.package(name: "Injection", path: "$work/lib-$variant")],
  targets: [
    .testTarget(
      name: "HopTests",
      dependencies: [
        .product(name: "Injection", package: "Injection"),
        .product(name: "InjectionTesting", package: "Injection"),
      ]
    )
  ]
)
MANIFEST
  cat >"$pkg/Tests/HopTests/HopTests.swift" <<'SWIFT'
import Injection
import InjectionTesting
import Testing

struct CountKey: InjectionKey { static let currentValue = 0 }
extension InjectedValues {
  var count: Int {
    get { self[CountKey.self] }
    set { self[CountKey.self] = newValue }
  }
}

/// Runs `cases` test cases' scopes through the trait, `width` at a time, as parallel tests do;
/// returns the wall time per case, in microseconds.
func perCase(_ trait: InjectingTrait, cases: Int, width: Int) async throws -> Double {
  let clock = ContinuousClock()
  let start = clock.now
  try await withThrowingTaskGroup(of: Void.self) { group in
    for lane in 0..<width {
      group.addTask {
        for _ in stride(from: lane, to: cases, by: width) {
          try await trait.provideScope(for: Test.current!, testCase: nil) {
            #expect(InjectedValues[\.count] == 1)
          }
        }
      }
    }
    try await group.waitForAll()
  }
  let elapsed = clock.now - start
  let (seconds, attoseconds) = elapsed.components
  return (Double(seconds) * 1e6 + Double(attoseconds) / 1e12) / Double(cases)
}

@Test func measure() async throws {
  let trait: InjectingTrait = .injecting { $0.count = 1 }
  _ = try await perCase(trait, cases: 2_000, width: 8)  // warm-up
  for width in [1, 8, 64] {
    let micros = try await perCase(trait, cases: 20_000, width: width)
    print("RESULT idle main actor, \(width) at a time: \(micros) µs per case")
  }
  // Main-actor work running beside the tests: 1 ms slices, back to back.
  let busy = Task { @MainActor in
    let clock = ContinuousClock()
    while !Task.isCancelled {
      let end = clock.now + .milliseconds(1)
      while clock.now < end {}
      await Task.yield()
    }
  }
  let micros = try await perCase(trait, cases: 2_000, width: 8)
  busy.cancel()
  print("RESULT busy main actor, 8 at a time: \(micros) µs per case")
}
SWIFT
  (cd "$pkg" && swift build -c release --build-tests >/dev/null)
done

for run in $(seq "$runs"); do
  for variant in nohop hop; do
    (cd "$work/tests-$variant" && swift test -c release --skip-build --filter HopTests 2>&1) \
      | grep "RESULT" | sed "s/^/$variant run $run: /"
  done
done
