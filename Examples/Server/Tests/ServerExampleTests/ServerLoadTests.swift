import Testing

@testable import ServerExample

@Suite("The example server under load")
struct ServerLoadTests {
  /// What the clients saw.
  struct Tally: Sendable {
    var correct = 0
    var crossTalk: [String] = []
    var failures: [String] = []
    var requestIDs: [String] = []
    /// The database connection each correct `/whoami` response named, by request ID.
    var connectionOfRequest: [String: Int] = [:]
    /// The tenant of each correct `/whoami` request, by request ID.
    var tenantOfRequest: [String: String] = [:]

    mutating func merge(_ other: Tally) {
      correct += other.correct
      crossTalk += other.crossTalk
      failures += other.failures
      requestIDs += other.requestIDs
      connectionOfRequest.merge(other.connectionOfRequest) { first, _ in first }
      tenantOfRequest.merge(other.tenantOfRequest) { first, _ in first }
    }
  }

  /// Counts the requests in flight and remembers the most at once.
  final class InFlightGauge: Sendable {
    private let counts = Lock((current: 0, peak: 0))

    func enter() {
      counts.withLock { counts in
        counts.current += 1
        counts.peak = max(counts.peak, counts.current)
      }
    }

    func leave() { counts.withLock { $0.current -= 1 } }
    var peak: Int { counts.withLock { $0.peak } }
  }

  @Test("2,048 requests over 64 connections: no cross-talk, one database connection per /whoami")
  func concurrentConnectionsStayIsolated() async throws {
    let connections = 64
    let requestsPerConnection = 32
    let database = Database(keepsConnections: true)
    let app = WhoAmIApp(middleware: RequestScopeMiddleware(database: database))
    let server = try HTTPServer(port: 0, app: app)
    let running = Task { try await server.run() }
    defer { running.cancel() }
    let poller = try Poller()
    defer { poller.stop() }

    let started = monotonicNanoseconds()
    // Every connection is opened before the first request is sent, so all 64 are open at once.
    let clients = try await withThrowingTaskGroup(of: HTTPTestClient.self) { group in
      for _ in 0..<connections {
        group.addTask { try await HTTPTestClient.connect(to: server.port, poller: poller) }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(clients.count == connections)

    let gauge = InFlightGauge()
    let tally = await withTaskGroup(of: Tally.self) { group in
      for (number, client) in clients.enumerated() {
        group.addTask {
          await Self.exercise(client, number: number, requests: requestsPerConnection, gauge: gauge)
        }
      }
      return await group.reduce(into: Tally()) { $0.merge($1) }
    }
    let elapsed = monotonicNanoseconds() - started

    running.cancel()
    let stopped = await finishes(running, withinSeconds: 30)

    let total = connections * requestsPerConnection
    let usingDatabase =
      connections * (0..<requestsPerConnection).filter { !Self.isOffRoute($0) }.count
    let audit = DatabaseAudit(database)
    print(
      """
      ServerExample load: \(total) requests over \(connections) concurrent connections \
      (peak \(gauge.peak) requests in flight): \(tally.correct) correct, \
      \(tally.crossTalk.count) cross-talk, \(tally.failures.count) failed, \(seconds(elapsed)) \
      (\(UInt64(total) * 1_000_000_000 / max(elapsed, 1)) requests/s); \(audit.summary) \
      for \(usingDatabase) /whoami requests
      """
    )
    #expect(tally.crossTalk.isEmpty, "\(tally.crossTalk.prefix(5))")
    #expect(tally.failures.isEmpty, "\(tally.failures.prefix(5))")
    #expect(tally.correct == total)
    #expect(Set(tally.requestIDs).count == total, "every request, on every connection, has its ID")
    #expect(stopped, "the server stops when the task running it is cancelled")

    // Each response was written after its request's connection closed, so all are closed now.
    audit.expectOneConnectionPerRequest(
      usingDatabase,
      connectionOfRequest: tally.connectionOfRequest,
      tenantOfRequest: tally.tenantOfRequest
    )
  }

  /// Whether request number `index` on a connection goes to a path with no route: one in eight
  /// does, and must open no database connection. (It always sends its own request ID.)
  static func isOffRoute(_ index: Int) -> Bool {
    index % 8 == 5
  }

  /// Sends `requests` requests on one connection, alternating between two tenants of its own;
  /// one request in four lets the server make up the request ID, and one in eight goes to a
  /// path with no route.
  static func exercise(
    _ client: HTTPTestClient,
    number: Int,
    requests: Int,
    gauge: InFlightGauge
  ) async -> Tally {
    var client = client
    var tally = Tally()
    var serverIDPrefix: String?  // the server numbers this connection once
    for index in 0..<requests {
      let tenant = index.isMultiple(of: 2) ? "acme-\(number)" : "globex-\(number)"
      let sentID = index % 4 == 3 ? nil : "c\(number)-r\(index)"
      var headers = [("X-Tenant", tenant)]
      if let sentID { headers.append(("X-Request-ID", sentID)) }

      let path = isOffRoute(index) ? "/nowhere" : "/whoami"
      gauge.enter()
      let outcome = await Result(catching: { try await client.get(path, headers: headers) })
      gauge.leave()
      let label = "connection \(number), request \(index)"
      guard case .success(let response) = outcome else {
        tally.failures.append("\(label): \(outcome)")
        return tally  // the connection is unusable
      }
      if isOffRoute(index) {
        if response.status == 404, response.body == #"{"error":"no route for /nowhere"}"# {
          tally.correct += 1
          tally.requestIDs.append(sentID!)
        } else {
          tally.failures.append("\(label): \(response.status) \(response.body)")
        }
        continue
      }
      guard response.status == 200, var fields = parseFlatJSONObject(response.body),
        let connectionID = fields.removeValue(forKey: "connectionID").flatMap({ Int($0) }),
        let requestID = fields["requestID"]
      else {
        tally.failures.append("\(label): \(response.status) \(response.body)")
        continue
      }

      var expectedID = requestID
      if let sentID {
        expectedID = sentID
      } else {
        // The server makes up "<connection number>-<request number on the connection>".
        let prefix = serverIDPrefix ?? String(requestID.prefix { $0.isNumber })
        serverIDPrefix = prefix
        expectedID = "\(prefix)-\(index + 1)"
      }
      let expected = [
        "requestID": expectedID,
        "tenant": tenant,
        "repositoryTenant": tenant,
        "repositorySawRequestID": expectedID,
      ]
      if fields == expected {
        tally.correct += 1
        tally.requestIDs.append(requestID)
        tally.connectionOfRequest[requestID] = connectionID
        tally.tenantOfRequest[requestID] = tenant
      } else {
        tally.crossTalk.append("\(label): expected \(expected), got \(fields)")
      }
    }
    return tally
  }
}

extension Result where Failure == any Error {
  /// Captures the outcome of an asynchronous throwing call.
  init(catching body: () async throws -> Success) async {
    do {
      self = .success(try await body())
    } catch {
      self = .failure(error)
    }
  }
}
