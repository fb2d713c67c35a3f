import Injection
import Testing

@testable import ServerExample

@Suite("Each request's database connection, opened on first use")
struct DatabaseConnectionTests {
  static func request(
    _ path: String,
    method: String = "GET",
    tenant: String? = "acme",
    id: String
  ) -> HTTPRequest {
    HTTPRequest(
      method: method,
      path: path,
      headers: tenant.map { [("X-Tenant", $0)] } ?? [],
      id: id
    )
  }

  @Test("GET /whoami opens one connection for its tenant, closed before the response returns")
  func whoAmIOpensOneConnection() async throws {
    let database = Database(keepsConnections: true)
    let app = WhoAmIApp(middleware: RequestScopeMiddleware(database: database))

    let response = await app.respond(to: Self.request("/whoami", id: "r1"))

    #expect(response.status == 200)
    #expect(parseFlatJSONObject(response.body)?["connectionID"] == "1")
    #expect(database.opened == 1)
    #expect(database.closed == 1)
    let connection = try #require(database.connections.first)
    #expect(connection.id == 1)
    #expect(connection.tenant == "acme")
    #expect(connection.requestIDs == ["r1"])
    #expect(connection.isClosed)
    #expect(connection.queriesAfterClose == 0)
  }

  @Test("Requests that never read the connection open none: 400, 404 and 405")
  func errorResponsesOpenNoConnection() async {
    let database = Database(keepsConnections: true)
    let app = WhoAmIApp(middleware: RequestScopeMiddleware(database: database))

    let noTenant = await app.respond(to: Self.request("/whoami", tenant: nil, id: "r1"))
    let offRoute = await app.respond(to: Self.request("/nowhere", id: "r2"))
    let post = await app.respond(to: Self.request("/whoami", method: "POST", id: "r3"))

    #expect([noTenant.status, offRoute.status, post.status] == [400, 404, 405])
    #expect(database.opened == 0)
    #expect(database.closed == 0)
    #expect(database.connections.isEmpty)
  }

  /// What one request of ``concurrentReadsShareOneConnection()`` saw.
  struct Outcome: Sendable {
    let requestID: String
    /// The IDs of the connections that the request's readers and its response named.
    var seen: Set<Int> = []
    /// Whether the connection was still open after the readers finished.
    var stayedOpen = false
  }

  @Test("Concurrent reads in one request share one connection; requests side by side do not")
  func concurrentReadsShareOneConnection() async throws {
    let requests = 32
    let readersPerRequest = 8
    let database = Database(keepsConnections: true)
    let middleware = RequestScopeMiddleware(database: database)

    // Each request reads the connection from the handler's `async let` and from a task group's
    // children at once; the first of those reads opens it, the others wait for it.
    let outcomes = await withTaskGroup(of: Outcome.self) { group in
      for number in 0..<requests {
        group.addTask {
          let request = Self.request("/whoami", tenant: "tenant-\(number)", id: "c-\(number)")
          var outcome = Outcome(requestID: request.id)
          let response = await middleware.respond(to: request) { _ in
            async let handled = WhoAmIHandler().handle()
            outcome.seen = await withTaskGroup(of: Int.self) { readers in
              for _ in 0..<readersPerRequest {
                readers.addTask { InjectedValues[\.databaseConnection].id }
              }
              return await readers.reduce(into: []) { $0.insert($1) }
            }
            outcome.stayedOpen = !InjectedValues[\.databaseConnection].isClosed
            return await handled
          }
          if let id = parseFlatJSONObject(response.body)?["connectionID"].flatMap({ Int($0) }) {
            outcome.seen.insert(id)
          }
          return outcome
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }

    #expect(outcomes.count == requests)
    for outcome in outcomes {
      #expect(outcome.seen.count == 1, "\(outcome.requestID) saw connections \(outcome.seen)")
      #expect(outcome.stayedOpen, "\(outcome.requestID): open while the request runs")
    }
    #expect(Set(outcomes.flatMap(\.seen)).count == requests, "each request has its own connection")
    #expect(database.opened == requests)
    #expect(database.closed == requests)
    #expect(database.connections.allSatisfy { $0.requestIDs.count == 1 && $0.isClosed })
  }

  struct HandlerFailure: Error {}

  @Test("A request that throws still closes the connection it opened, and opens none before")
  func throwingRequestClosesItsConnection() async throws {
    let database = Database(keepsConnections: true)
    let middleware = RequestScopeMiddleware(database: database)

    await #expect(throws: HandlerFailure.self) {
      _ = try await middleware.respond(to: Self.request("/whoami", id: "t1")) { _ in
        _ = await InjectedValues[\.tenantRepository].currentUserProfile()  // opens it
        throw HandlerFailure()
      }
    }
    #expect(database.opened == 1)
    #expect(database.closed == 1, "closed before the error reached the caller")
    let connection = try #require(database.connections.first)
    #expect(connection.requestIDs == ["t1"])
    #expect(connection.isClosed)

    await #expect(throws: HandlerFailure.self) {
      _ = try await middleware.respond(to: Self.request("/whoami", id: "t2")) { _ in
        throw HandlerFailure()
      }
    }
    #expect(database.opened == 1, "a request that threw before reading it opened none")
  }
}
