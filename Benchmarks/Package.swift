// swift-tools-version:6.1
import PackageDescription

// The benchmarks of Injection, in a package of their own so that they never appear in the graph
// of a package that depends on the library. Run them from this folder:
//
//     swift run -c release InjectionBenchmarks --help
//
// See Docs/Performance.md in the repository for what they measure and how to read the results.
let package = Package(
  name: "InjectionBenchmarks",
  platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6)],
  dependencies: [
    // The library, from the checkout this folder sits in.
    .package(name: "Injection", path: "..")
  ],
  targets: [
    // A synchronous `main`, so that callgrind can count instructions per case.
    .executableTarget(
      name: "InjectionBenchmarks",
      dependencies: [
        .product(name: "Injection", package: "Injection"), "BenchmarkSupport", "BenchmarkKeys",
        "BenchmarkShapes",
      ]
    ),
    // The shape matrix (Cases/ShapeCases.swift) in an app's layout: the keys and accessors in
    // one module, the types that hold `@Injected` in another, read from the executable.
    .target(
      name: "BenchmarkKeys",
      dependencies: [.product(name: "Injection", package: "Injection")]
    ),
    .target(
      name: "BenchmarkShapes",
      dependencies: [.product(name: "Injection", package: "Injection"), "BenchmarkKeys"]
    ),
    // The black hole lives in its own module, so the optimizer cannot see through it.
    .target(name: "BenchmarkSupport"),
  ],
  swiftLanguageModes: [.v6]
)

// The same upcoming features as the library's targets; each names its proposal.
let strictness: [SwiftSetting] = [
  // SE-0335: every existential type is spelled `any P`.
  .enableUpcomingFeature("ExistentialAny"),
  // SE-0409: imports are internal unless marked `public`.
  .enableUpcomingFeature("InternalImportsByDefault"),
]
for target in package.targets {
  target.swiftSettings = (target.swiftSettings ?? []) + strictness
}
