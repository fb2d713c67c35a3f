/// Figures for other dependency-injection libraries, quoted for comparison. They were measured
/// outside this tool, side by side on a 2-vCPU Linux VM like the one the project's figures come
/// from, with Swift 6.3.1 and release builds, each resolving an `any Protocol` and calling one
/// non-inlined method; loop floor included. This tool does not measure them (the package has
/// no dependencies), so they appear in reports and charts marked as quoted.
enum PeerFigures {
  struct Figure {
    let title: String
    /// Median nanoseconds per operation.
    let nanoseconds: Double
    /// Instructions per operation, from callgrind.
    let instructions: Int

    init(_ title: String, _ nanoseconds: Double, _ instructions: Int) {
      self.title = title
      self.nanoseconds = nanoseconds
      self.instructions = instructions
    }
  }

  static let source =
    "Peers: quoted figures, measured side by side on a 2-vCPU Linux VM "
    + "(Swift 6.3.1, release); not measured in this run."

  static let all = [
    Figure("swift-dependencies @Dependency read, no override", 1_661, 8_281),
    Figure("Factory Container.shared.x(), singleton", 1_399, 11_178),
    Figure("Swinject resolve, container scope", 1_376, 6_377),
    Figure("swift-dependencies @Dependency read, overridden", 646, 5_083),
    Figure("swift-dependencies withDependencies entry", 461, 2_785),
    Figure("lock + [ObjectIdentifier: any Sendable] + as!", 181, 1_840),
    Figure("lock + [ObjectIdentifier: AnyObject] + unsafeDowncast", 50, 507),
  ]
}
