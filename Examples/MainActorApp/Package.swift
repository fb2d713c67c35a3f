// swift-tools-version:6.2
import PackageDescription

// What a new app target is compiled with: every declaration isolated to the main actor unless
// it says otherwise, conformances of main-actor types isolated to the main actor, and
// nonisolated async functions running on their caller's actor.
let appSettings: [SwiftSetting] = [
  .defaultIsolation(MainActor.self),
  .enableUpcomingFeature("InferIsolatedConformances"),
  .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
]

let package = Package(
  name: "MainActorApp",
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
  dependencies: [
    // The Injection package at the root of this repository.
    .package(name: "Injection", path: "../..")
  ],
  targets: [
    // The app: `swift run` prints what it reads.
    .executableTarget(
      name: "MainActorApp",
      dependencies: [.product(name: "Injection", package: "Injection")],
      swiftSettings: appSettings
    ),
    .testTarget(
      name: "MainActorAppTests",
      dependencies: [
        "MainActorApp",
        .product(name: "Injection", package: "Injection"),
        .product(name: "InjectionTesting", package: "Injection"),
      ],
      swiftSettings: appSettings
    ),
    // Tests of the same app in a target without default isolation, as many projects keep them.
    .testTarget(
      name: "NonisolatedTests",
      dependencies: [
        "MainActorApp",
        .product(name: "Injection", package: "Injection"),
        .product(name: "InjectionTesting", package: "Injection"),
      ]
    ),
  ]
)
