#!/usr/bin/env bash
# What running `.injecting` update closures on the main actor costs parallel tests: the same
# test suites, in release builds, against this repository's InjectionTesting and against a copy
# whose update closures are nonisolated (the trait before it hopped). Prints Swift Testing's own
# durations; asserts nothing. Usage: bash Examples/MainActorApp/Scripts/measure-trait-hop.sh [runs]
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

let cases = 0..<20_000

@Suite struct Plain {
  @Test(arguments: cases) func noTrait(i: Int) { #expect(InjectedValues[\.count] == 0) }
}

@Suite struct Injecting {
  @Test(.injecting { $0.count = 1 }, arguments: cases)
  func withTrait(i: Int) { #expect(InjectedValues[\.count] == 1) }
}

@Suite struct Busy {
  // A main-actor test that keeps the main actor busy for one second, synchronously.
  @Test @MainActor func busyMainActor() {
    let clock = ContinuousClock()
    let end = clock.now + .seconds(1)
    var spins = 0
    while clock.now < end { spins += 1 }
    #expect(spins > 0)
  }
  @Test(.injecting { $0.count = 1 }, arguments: cases)
  func withTrait(i: Int) { #expect(InjectedValues[\.count] == 1) }
}
SWIFT
  (cd "$pkg" && swift build -c release --build-tests >/dev/null)
done

for filter in Plain Injecting Busy; do
  for variant in nohop hop; do
    for run in $(seq "$runs"); do
      line="$(cd "$work/tests-$variant" && swift test -c release --skip-build --filter "HopTests.$filter" 2>&1 \
        | grep -E "^. Test run with" || true)"
      echo "$filter $variant run $run: ${line:-no summary}"
    done
  done
done
