#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs this benchmark tool again as a child process, to measure what only a whole process
/// shows: its peak memory, and (under valgrind) every heap allocation it makes.
enum ChildProcess {
  /// The absolute path of the running executable.
  static var executable: String {
    #if os(Linux)
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
      if length > 0 { return TextFile.string(from: buffer[..<length]) }
    #endif
    return CommandLine.arguments[0]
  }

  /// Runs `program` (looked up on `PATH`) with `arguments` and waits for it. Its standard
  /// output goes to the file at `outputPath`, or is discarded; its standard error is discarded.
  /// Returns whether it ran and exited with status 0.
  @discardableResult
  static func run(_ program: String, _ arguments: [String], outputPath: String? = nil) -> Bool {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    let output = outputPath ?? "/dev/null"
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)

    let argv = ([program] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var child = pid_t()
    guard posix_spawnp(&child, program, &actions, nil, argv, environ) == 0 else { return false }
    var status: Int32 = 0
    return waitpid(child, &status, 0) == child && status == 0
  }
}
