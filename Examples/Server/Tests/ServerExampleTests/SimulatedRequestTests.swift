import Testing

@testable import ServerExample

@Suite("Simulated requests, without sockets")
struct SimulatedRequestTests {
  @Test("50,000 simulated requests, 64 at a time: no cross-talk, one connection per /whoami")
  func simulatedRequestsStayIsolated() async {
    let total = 50_000
    let workers = 64
    let database = Database(keepsConnections: true)
    let app = WhoAmIApp(middleware: RequestScopeMiddleware(database: database))

    let started = monotonicNanoseconds()
    // 64 tasks, each sending every 64th request: 64 requests are in flight at any time, and
    // they interleave at every suspension point of the handler.
    let tally = await withTaskGroup(of: Tally.self) { group in
      for worker in 0..<workers {
        group.addTask {
          var tally = Tally()
          for index in stride(from: worker, to: total, by: workers) {
            tally.record(index, await Self.simulate(index, app: app))
          }
          return tally
        }
      }
      return await group.reduce(into: Tally()) { $0.merge($1) }
    }
    let elapsed = monotonicNanoseconds() - started

    let usingDatabase = (0..<total).filter { !Self.isOffRoute($0) }.count
    let audit = DatabaseAudit(database)
    print(
      """
      ServerExample simulated: \(total) requests, \(workers) concurrent, no sockets: \
      \(tally.correct) correct, \(tally.crossTalk) cross-talk, \(tally.failed) failed, \
      \(seconds(elapsed)) (\(UInt64(total) * 1_000_000_000 / max(elapsed, 1)) requests/s); \
      \(audit.summary) for \(usingDatabase) /whoami requests
      """
    )
    #expect(tally.crossTalk == 0)
    #expect(tally.failed == 0)
    #expect(tally.correct == total)

    // `respond(to:)` returned after each request's connection closed, so all are closed now.
    let connectionOfRequest = Dictionary(
      uniqueKeysWithValues: tally.connectionOfRequest.map { (Self.requestID($0), $1) }
    )
    let tenantOfRequest = Dictionary(
      uniqueKeysWithValues: tally.connectionOfRequest.keys.map {
        (Self.requestID($0), Self.tenant($0))
      }
    )
    audit.expectOneConnectionPerRequest(
      usingDatabase,
      connectionOfRequest: connectionOfRequest,
      tenantOfRequest: tenantOfRequest
    )
  }

  /// What the requests of one or more workers got.
  struct Tally: Sendable {
    var correct = 0
    var crossTalk = 0
    var failed = 0
    /// The database connection each correct `/whoami` response named, by request number.
    var connectionOfRequest: [Int: Int] = [:]

    mutating func record(_ index: Int, _ outcome: Outcome) {
      switch outcome {
      case .correct(let connectionID?):
        correct += 1
        connectionOfRequest[index] = connectionID
      case .correct(nil): correct += 1
      case .crossTalk: crossTalk += 1
      case .failed: failed += 1
      }
    }

    mutating func merge(_ other: Tally) {
      correct += other.correct
      crossTalk += other.crossTalk
      failed += other.failed
      connectionOfRequest.merge(other.connectionOfRequest) { first, _ in first }
    }
  }

  enum Outcome: Hashable, Sendable {
    /// The expected answer; for `/whoami`, with the ID of the database connection it used.
    case correct(connectionID: Int?)
    case crossTalk, failed
  }

  static func requestID(_ index: Int) -> String { "sim-\(index)" }
  static func tenant(_ index: Int) -> String { "tenant-\(index % 997)" }

  /// Whether request number `index` goes to a path with no route, and so must open no database
  /// connection: one in eight does.
  static func isOffRoute(_ index: Int) -> Bool {
    index % 8 == 5
  }

  /// Runs request number `index` through the app, as the server would, and checks the answer.
  static func simulate(_ index: Int, app: WhoAmIApp) async -> Outcome {
    let tenant = tenant(index)
    let requestID = requestID(index)
    let request = HTTPRequest(
      method: "GET",
      path: isOffRoute(index) ? "/nowhere" : "/whoami",
      headers: [("X-Tenant", tenant)],
      id: requestID
    )
    let response = await app.respond(to: request)
    if isOffRoute(index) {
      guard response.status == 404 else { return .failed }
      return response.body == #"{"error":"no route for /nowhere"}"#
        ? .correct(connectionID: nil) : .crossTalk
    }
    guard response.status == 200 else { return .failed }
    // The whole body is compared, so any field from another request counts as cross-talk; only
    // the connection ID, which no one can predict, is parsed. (Comparing text, not parsed JSON,
    // keeps 50,000 checks quick under ThreadSanitizer.)
    let expectedStart = """
      {"requestID":"\(requestID)","tenant":"\(tenant)",\
      "repositoryTenant":"\(tenant)","repositorySawRequestID":"\(requestID)","connectionID":"
      """
    let expectedEnd = #""}"#
    guard response.body.hasPrefix(expectedStart), response.body.hasSuffix(expectedEnd),
      let connectionID = Int(response.body.dropFirst(expectedStart.count).dropLast(2))
    else { return .crossTalk }
    return .correct(connectionID: connectionID)
  }
}
