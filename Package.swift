// swift-tools-version:6.1
// Swift 6.1 (Xcode 16.3) is the floor: InjectionTesting's traits conform to Swift Testing's
// `TestScoping`, which arrived in 6.1. An older toolchain refuses this manifest before it builds.
import PackageDescription

let package = Package(
  name: "Injection",
  // The lowest versions Swift concurrency (and so `TaskLocal`) runs on. Nothing in the library
  // needs more (see the availability table in Docs/Design.md).
  platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6)],
  // Only the libraries are products. The demo is an executable target, which `swift run` finds
  // by name, and never appears in the graph of a package that depends on this one.
  products: [
    .library(name: "Injection", targets: ["Injection"]),
    // Test support: Swift Testing traits and XCTest helpers. Link it from test targets only.
    .library(name: "InjectionTesting", targets: ["InjectionTesting"]),
  ],
  targets: [
    .target(name: "Injection", dependencies: ["CInjectionSupport"]),
    // C11 atomics and a thread-local slot, which Swift offers on every declared platform only
    // through C (`Synchronization` needs macOS 15 / iOS 18). See Docs/Design.md.
    .target(name: "CInjectionSupport"),
    .target(name: "InjectionTesting", dependencies: ["Injection"]),

    .executableTarget(name: "InjectionDemo", dependencies: ["Injection"]),

    // The benchmarks and the examples (an example server, an app with default main-actor
    // isolation) are packages of their own, in Benchmarks/ and Examples/.

    // The seed pattern's usage code, unchanged, in the Swift 5 mode it was written for. Code kept
    // as written keeps its warnings (Tests/SeedUsage/Seed.swift says which), so this target alone
    // is compiled without printing them: a clean build and test run print none. Unsafe flags are
    // refused only in the products of a dependency, and no product contains this target.
    .target(
      name: "SeedUsage",
      dependencies: ["Injection"],
      path: "Tests/SeedUsage",
      swiftSettings: [.swiftLanguageMode(.v5), .unsafeFlags(["-suppress-warnings"])]
    ),

    // What the tests of both libraries share (the seeded generator of their model tests).
    .target(name: "TestSupport", path: "Tests/TestSupport"),

    .testTarget(name: "InjectionTests", dependencies: ["Injection", "SeedUsage", "TestSupport"]),
    .testTarget(
      name: "InjectionTestingTests",
      dependencies: ["Injection", "InjectionTesting", "TestSupport"]
    ),
  ],
  swiftLanguageModes: [.v6]
)

// Upcoming features and stricter checks, set in one place for every Swift target but the seed's
// usage code, which stays as it was written (the C target has no Swift settings). Each names its
// proposal.
let strictness: [SwiftSetting] = [
  // SE-0335: every existential type is spelled `any P`, so its cost is visible where it is used.
  .enableUpcomingFeature("ExistentialAny"),
  // SE-0409: imports are internal unless marked `public`, so no module leaks into the API.
  .enableUpcomingFeature("InternalImportsByDefault"),
]
let exempt: Set = ["SeedUsage", "CInjectionSupport"]
for target in package.targets where !exempt.contains(target.name) {
  target.swiftSettings = (target.swiftSettings ?? []) + strictness
}
