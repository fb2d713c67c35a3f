import Injection
import Testing

@testable import ServerExample

@Suite("The example's HTTP behaviour")
struct HTTPBehaviourTests {
  // MARK: - Parsing

  @Test("A request head parses into method, path without query, version and headers")
  func parsesHead() throws {
    let head = "GET /whoami?verbose=1 HTTP/1.1\r\nHost: x\r\nX-Tenant:  acme \r\nX-Empty:"
    let request = try #require(HTTPRequest(head: Array(head.utf8)))
    #expect(request.method == "GET")
    #expect(request.path == "/whoami")
    #expect(request.version == "HTTP/1.1")
    #expect(request.header("x-tenant") == "acme")
    #expect(request.header("X-EMPTY") == "")
    #expect(request.header("X-Missing") == nil)
  }

  @Test(
    "Malformed heads are rejected",
    arguments: [
      "", "GET /whoami", "GET whoami HTTP/1.1", "GET /whoami HTTP/2", "GET  /whoami HTTP/1.1",
      "GET /whoami HTTP/1.1\r\nNoColon", "GET /whoami HTTP/1.1\r\nBad Name: x",
      "GET /whoami HTTP/1.1\r\n folded: x",
    ]
  )
  func rejectsMalformedHeads(head: String) {
    #expect(HTTPRequest(head: Array(head.utf8)) == nil)
  }

  @Test("HTTP/1.1 keeps the connection unless told to close; HTTP/1.0 only if told to keep it")
  func keepAliveRules() {
    func request(_ version: String, _ connection: String?) -> HTTPRequest {
      let headers = connection.map { [("Connection", $0)] } ?? []
      return HTTPRequest(method: "GET", path: "/", version: version, headers: headers, id: "")
    }
    #expect(request("HTTP/1.1", nil).keepsConnectionAlive)
    #expect(!request("HTTP/1.1", "close").keepsConnectionAlive)
    #expect(!request("HTTP/1.0", nil).keepsConnectionAlive)
    #expect(request("HTTP/1.0", "Keep-Alive").keepsConnectionAlive)
  }

  // MARK: - The app, without sockets

  @Test("The app answers 400 without a tenant, 404 off the route and 405 with Allow for POST")
  func errorResponses() async {
    let app = WhoAmIApp()
    let noTenant = await app.respond(
      to: HTTPRequest(method: "GET", path: "/whoami", headers: [], id: "1")
    )
    #expect(noTenant.status == 400)
    #expect(parseFlatJSONObject(noTenant.body) == ["error": "missing X-Tenant header"])

    let tenant = [("X-Tenant", "acme")]
    let offRoute = await app.respond(
      to: HTTPRequest(method: "GET", path: "/other", headers: tenant, id: "2")
    )
    #expect(offRoute.status == 404)

    let post = await app.respond(
      to: HTTPRequest(method: "POST", path: "/whoami", headers: tenant, id: "3")
    )
    #expect(post.status == 405)
    #expect(post.headers.map(\.name) == ["Allow"])
    #expect(post.headers.map(\.value) == ["GET"])
  }

  @Test("Tenant names with quotes, backslashes and control characters come back intact")
  func jsonEscaping() async {
    let tenant = "a\"b\\c\u{1}d é"
    let response = await WhoAmIApp().respond(
      to: HTTPRequest(method: "GET", path: "/whoami", headers: [("X-Tenant", tenant)], id: "q")
    )
    #expect(parseFlatJSONObject(response.body)?["tenant"] == tenant)
  }

  @Test("Outside any request, the handler and repository see no tenant, request or connection")
  func handlerOutsideRequest() async {
    let response = await WhoAmIHandler().handle()
    #expect(
      parseFlatJSONObject(response.body) == [
        "requestID": "(none)", "tenant": "(none)",
        "repositoryTenant": "(none)", "repositorySawRequestID": "(none)", "connectionID": "0",
      ]
    )
  }

  @Test("The middleware injects the repository its factory makes for the request's tenant")
  func middlewareUsesRepositoryFactory() async {
    let middleware = RequestScopeMiddleware { tenant in
      InMemoryTenantRepository(tenant: "db-of-\(tenant)")
    }
    let request = HTTPRequest(
      method: "GET",
      path: "/whoami",
      headers: [("X-Tenant", "acme")],
      id: "r1"
    )
    let response = await middleware.respond(to: request) { _ in
      #expect(InjectedValues[\.requestContext] == RequestContext(requestID: "r1", tenant: "acme"))
      return await WhoAmIHandler().handle()
    }
    #expect(parseFlatJSONObject(response.body)?["repositoryTenant"] == "db-of-acme")
    #expect(InjectedValues[\.requestContext] == .outsideRequest, "the scope ended")
  }

  // MARK: - Over sockets

  @Test("Bad requests get 400 and a closed connection; Connection: close and HTTP/1.0 close too")
  func closingRules() async throws {
    let server = try HTTPServer(port: 0)
    let running = Task { try await server.run() }
    defer { running.cancel() }
    let poller = try Poller()
    defer { poller.stop() }

    let cases: [(request: String, status: Int)] = [
      ("BREW /pot\r\n\r\n", 400),
      ("GET /whoami HTTP/1.1\r\nX-Tenant: a\r\nContent-Length: 3\r\n\r\nabc", 400),
      ("GET /whoami HTTP/1.1\r\nX-Tenant: a\r\nConnection: close\r\n\r\n", 200),
      ("GET /whoami HTTP/1.0\r\nX-Tenant: a\r\n\r\n", 200),
    ]
    for (request, status) in cases {
      var client = try await HTTPTestClient.connect(to: server.port, poller: poller)
      try await client.send(request)
      let response = try await client.receiveResponse()
      #expect(response.status == status, "\(request)")
      #expect(response.headers["connection"] == "close", "\(request)")
      #expect(try await client.isClosedByServer(), "\(request)")
    }
  }

  @Test("A kept-alive connection serves requests of different tenants, each in its own scope")
  func keepAliveRequestsGetTheirOwnScopes() async throws {
    let server = try HTTPServer(port: 0)
    #expect(server.port != 0)
    let running = Task { try await server.run() }
    defer { running.cancel() }
    let poller = try Poller()
    defer { poller.stop() }

    var client = try await HTTPTestClient.connect(to: server.port, poller: poller)
    let first = try await client.get("/whoami", headers: [("X-Tenant", "acme")])
    let second = try await client.get("/whoami", headers: [("x-tenant", "globex")])
    #expect(first.headers["content-type"] == "application/json")
    #expect(first.headers["connection"] == "keep-alive")
    let firstFields = try #require(parseFlatJSONObject(first.body))
    let secondFields = try #require(parseFlatJSONObject(second.body))
    #expect(firstFields["tenant"] == "acme")
    #expect(secondFields["tenant"] == "globex")
    #expect(secondFields["repositoryTenant"] == "globex")
    let firstID = try #require(firstFields["requestID"])
    let secondID = try #require(secondFields["requestID"])
    #expect(firstID.hasSuffix("-1") && secondID.hasSuffix("-2"))
    #expect(firstID.dropLast(2) == secondID.dropLast(2), "both on one connection")

    running.cancel()
    #expect(await finishes(running, withinSeconds: 30), "cancelling stops the server")
  }
}
