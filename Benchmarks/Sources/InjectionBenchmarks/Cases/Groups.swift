/// The report's sections, in order.
enum Group {
  static let baselines = "Baselines"
  static let reads = "Reads"
  static let shapes = "Shapes (where the wrapper lives; read from another module)"
  static let scopes = "Scopes"
  static let chains = "Long chains (many writes, many visible overrides)"
  static let scaling = "Scaling (default reads on threads)"
  static let requests = "Requests (3 overrides and 10 reads, without a task each)"
  static let perRequest = "Per request (100,000 requests, a task each, 1,000 in flight)"
  static let all = [baselines, reads, shapes, scopes, chains, scaling, requests, perRequest]
  /// Not timed, so not among the time tables: see `GlobalMemoryReport`.
  static let globalMemory = "Global values memory"
}

/// The ids of the cases that others are compared with.
enum BaselineID {
  static let staticLet = "baseline.static-let"
  static let taskLocal = "baseline.task-local"
  static let taskLocalBound = "baseline.task-local.bound"
  static let withValue = "baseline.with-value"
  static let withValueAsync = "baseline.with-value.async"
  static let taskLocalAfterGlobalWrite = "baseline.task-local.after-global-write"
  static let overriddenRead = "read.overridden"
  static let rawRequests = "request.task-local"
}
