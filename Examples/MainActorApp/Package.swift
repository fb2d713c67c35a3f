// swift-tools-version:6.2
import PackageDescription

// SE-0466: every declaration is isolated to the main actor unless it says otherwise.
let mainActorByDefault: [SwiftSetting] = [.defaultIsolation(MainActor.self)]

// What a new app target is compiled with in Xcode 26: default main-actor isolation, and the two
// upcoming features of its "Approachable Concurrency" setting.
let appSettings: [SwiftSetting] =
  mainActorByDefault
  + [
    // SE-0470: conformances of main-actor types are isolated to the main actor.
    "InferIsolatedConformances",
    // SE-0461: nonisolated async functions run on their caller's actor.
    "NonisolatedNonsendingByDefault",
  ].map { SwiftSetting.enableUpcomingFeature($0) }

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
    // Tests with default main-actor isolation but without the upcoming features, as a target
    // has that "Approachable Concurrency" leaves off.
    .testTarget(
      name: "MainActorOnlyTests",
      dependencies: [
        "MainActorApp",
        .product(name: "Injection", package: "Injection"),
        .product(name: "InjectionTesting", package: "Injection"),
      ],
      swiftSettings: mainActorByDefault
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
