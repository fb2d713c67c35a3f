// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "Injection",
  // The lowest versions Swift concurrency (and so `TaskLocal`) runs on. Nothing in the library
  // needs more; the Synchronization module is used only behind `#available` checks.
  platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6)],
  products: [
    .library(name: "Injection", targets: ["Injection"]),
    .executable(name: "InjectionDemo", targets: ["InjectionDemo"]),
  ],
  targets: [
    .target(name: "Injection"),
    .executableTarget(name: "InjectionDemo", dependencies: ["Injection"]),
    // The seed pattern's usage code, unchanged, in the Swift 5 mode it was written for.
    .target(
      name: "SeedUsage",
      dependencies: ["Injection"],
      path: "Tests/SeedUsage",
      swiftSettings: [.swiftLanguageMode(.v5)]
    ),
    .testTarget(name: "InjectionTests", dependencies: ["Injection", "SeedUsage"]),
  ],
  swiftLanguageModes: [.v6]
)
