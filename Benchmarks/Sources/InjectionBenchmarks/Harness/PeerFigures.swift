/// Figures for other dependency-injection libraries, quoted for comparison. They were measured
/// outside this tool, in one release executable with one module per library, on a 2-vCPU Linux
/// VM like the one the project's figures come from, with Swift 6.3.1, each resolving the same
/// `any Protocol` service; instructions counted with callgrind, times the medians of 7
/// round-robin repetitions in each of 4 runs. This tool does not measure them (the package has
/// no dependencies), so they appear in reports and charts marked as quoted.
enum PeerFigures {
  struct Figure {
    let title: String
    /// Nanoseconds per operation: the middle of the range of the runs' medians.
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
    Figure("swift-dependencies @Dependency read, no override", 1_357, 8_369),
    Figure("swift-dependencies @Dependency read, overridden", 791, 5_142),
    Figure("swift-dependencies withDependencies entry, 1 override", 366, 3_024),
    Figure("Factory Container.shared.x(), singleton", 1_916, 10_890),
    Figure("Swinject resolve, container scope", 1_280, 6_387),
  ]
}
