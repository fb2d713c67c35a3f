// swift-tools-version:6.1
import PackageDescription

let package = Package(
  name: "Server",
  // The lowest macOS that Swift concurrency runs on, as for the library. The server runs on Linux
  // and macOS (POSIX sockets and `poll(2)`).
  platforms: [.macOS(.v10_15)],
  dependencies: [
    // The Injection package at the root of this repository.
    .package(name: "Injection", path: "../..")
  ],
  targets: [
    // The request handling is a library so that tests can run the server in-process.
    .target(
      name: "ServerExample",
      dependencies: [.product(name: "Injection", package: "Injection")]
    ),
    // `swift run InjectionServerExample [--port N]` listens on 127.0.0.1.
    .executableTarget(name: "InjectionServerExample", dependencies: ["ServerExample"]),
    .testTarget(
      name: "ServerExampleTests",
      dependencies: ["ServerExample", .product(name: "Injection", package: "Injection")]
    ),
  ],
  swiftLanguageModes: [.v6]
)

// The same upcoming features and stricter checks as the library's own targets, for every target.
let strictness: [SwiftSetting] = [
  // SE-0335: every existential type is spelled `any P`, so its cost is visible where it is used.
  .enableUpcomingFeature("ExistentialAny"),
  // SE-0409: imports are internal unless marked `public`, so no module leaks into the API.
  .enableUpcomingFeature("InternalImportsByDefault"),
]
for target in package.targets {
  target.swiftSettings = (target.swiftSettings ?? []) + strictness
}
