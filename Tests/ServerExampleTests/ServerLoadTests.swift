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

    mutating func merge(_ other: Tally) {
      correct += other.correct
      crossTalk += other.crossTalk
      failures += other.failures
      requestIDs += other.requestIDs
    }
  }

  /// Counts the requests in flight and remembers the most at once.
  final class InFlightGauge: Sendable {
    private let counts = ExampleLock((current: 0, peak: 0))

    func enter() {
      counts.withLock { counts in
        counts.current += 1
        counts.peak = max(counts.peak, counts.current)
      }
    }

    func leave() { counts.withLock { $0.current -= 1 } }
    var peak: Int { counts.withLock { $0.peak } }
  }

  @Test("2,048 requests over 64 concurrent connections each report their own tenant and request")
  func concurrentConnectionsStayIsolated() async throws {
    let connections = 64
    let requestsPerConnection = 32
    let server = try HTTPServer(port: 0)
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
    print(
      """
      ServerExample load: \(total) requests over \(connections) concurrent connections \
      (peak \(gauge.peak) requests in flight): \(tally.correct) correct, \
      \(tally.crossTalk.count) cross-talk, \(tally.failures.count) failed, \(seconds(elapsed)) \
      (\(UInt64(total) * 1_000_000_000 / max(elapsed, 1)) requests/s)
      """
    )
    #expect(tally.crossTalk.isEmpty, "\(tally.crossTalk.prefix(5))")
    #expect(tally.failures.isEmpty, "\(tally.failures.prefix(5))")
    #expect(tally.correct == total)
    #expect(Set(tally.requestIDs).count == total, "every request, on every connection, has its ID")
    #expect(stopped, "the server stops when the task running it is cancelled")
  }

  /// Sends `requests` requests on one connection, alternating between two tenants of its own;
  /// one request in four lets the server make up the request ID.
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

      gauge.enter()
      let outcome = await Result(catching: { try await client.get("/whoami", headers: headers) })
      gauge.leave()
      let label = "connection \(number), request \(index)"
      guard case .success(let response) = outcome else {
        tally.failures.append("\(label): \(outcome)")
        return tally  // the connection is unusable
      }
      guard response.status == 200, let fields = parseFlatJSONObject(response.body),
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
