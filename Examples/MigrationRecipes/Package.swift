// swift-tools-version:6.2
import PackageDescription

// The recipes of Docs/Migrating.md for the shapes the Swift 6 language mode rejects, each
// compiled as the guide shows it, and tested. `Recipes` has no default isolation;
// `MainActorRecipes` is compiled the way new app targets are.
let mainActorSettings: [SwiftSetting] = [
  .defaultIsolation(MainActor.self),
  .enableUpcomingFeature("InferIsolatedConformances"),
  .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
]

let package = Package(
  name: "MigrationRecipes",
  // `@Observable` needs macOS 14 and iOS 17.
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
  dependencies: [
    // The Injection package at the root of this repository.
    .package(name: "Injection", path: "../..")
  ],
  targets: [
    .target(
      name: "Recipes",
      dependencies: [.product(name: "Injection", package: "Injection")]
    ),
    .target(
      name: "MainActorRecipes",
      dependencies: [.product(name: "Injection", package: "Injection")],
      swiftSettings: mainActorSettings
    ),
    .testTarget(
      name: "RecipesTests",
      dependencies: [
        "Recipes",
        .product(name: "Injection", package: "Injection"),
        .product(name: "InjectionTesting", package: "Injection"),
      ]
    ),
    .testTarget(
      name: "MainActorRecipesTests",
      dependencies: [
        "MainActorRecipes",
        .product(name: "Injection", package: "Injection"),
        .product(name: "InjectionTesting", package: "Injection"),
      ],
      swiftSettings: mainActorSettings
    ),
  ],
  swiftLanguageModes: [.v6]
)
