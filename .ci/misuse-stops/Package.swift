// swift-tools-version:6.1
import PackageDescription

// An executable that commits one misuse of the library per run, built in release by
// `.ci/misuse-stops.sh`, which checks that each stop prints the library's message.
let package = Package(
  name: "MisuseStops",
  dependencies: [.package(name: "Injection", path: "../..")],
  targets: [
    .executableTarget(
      name: "MisuseStops",
      dependencies: [.product(name: "Injection", package: "Injection")]
    ),
    // Top-level code with `await`, where Swift picks the synchronous scope function.
    .executableTarget(
      name: "TopLevelAwait",
      dependencies: [.product(name: "Injection", package: "Injection")]
    ),
  ],
  swiftLanguageModes: [.v6]
)
