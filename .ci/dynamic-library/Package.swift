// swift-tools-version:6.1
import PackageDescription

// A client of the library as a shared library: `.ci/dynamic-library.sh` copies this package next
// to a copy of the library's package that declares a dynamic product, and fills in its path.
let package = Package(
  name: "DynamicClient",
  dependencies: [.package(path: "__INJECTION_PATH__")],
  targets: [
    .executableTarget(
      name: "DynamicClient",
      dependencies: [.product(name: "InjectionDynamic", package: "Injection")]
    )
  ],
  swiftLanguageModes: [.v6]
)
