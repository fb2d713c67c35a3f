import Testing

@testable import ServerExample

@Suite("Simulated requests, without sockets")
struct SimulatedRequestTests {
  @Test("100,000 simulated requests, 64 at a time, each report their own tenant and request")
  func simulatedRequestsStayIsolated() async {
    let total = 100_000
    let workers = 64
    let app = WhoAmIApp()

    let started = monotonicNanoseconds()
    // 64 tasks, each sending every 64th request: 64 requests are in flight at any time, and
    // they interleave at every suspension point of the handler.
    let counts = await withTaskGroup(of: [Outcome: Int].self) { group in
      for worker in 0..<workers {
        group.addTask {
          var counts: [Outcome: Int] = [:]
          for index in stride(from: worker, to: total, by: workers) {
            counts[await Self.simulate(index, app: app), default: 0] += 1
          }
          return counts
        }
      }
      return await group.reduce(into: [:]) { $0.merge($1, uniquingKeysWith: +) }
    }
    let elapsed = monotonicNanoseconds() - started

    let correct = counts[.correct, default: 0]
    let crossTalk = counts[.crossTalk, default: 0]
    let failed = counts[.failed, default: 0]
    print(
      """
      ServerExample simulated: \(total) requests, \(workers) concurrent, no sockets: \
      \(correct) correct, \(crossTalk) cross-talk, \(failed) failed, \(seconds(elapsed)) \
      (\(UInt64(total) * 1_000_000_000 / max(elapsed, 1)) requests/s)
      """
    )
    #expect(crossTalk == 0)
    #expect(failed == 0)
    #expect(correct == total)
  }

  enum Outcome: Hashable, Sendable {
    case correct, crossTalk, failed
  }

  /// Runs request number `index` through the app, as the server would, and checks the answer.
  static func simulate(_ index: Int, app: WhoAmIApp) async -> Outcome {
    let tenant = "tenant-\(index % 997)"
    let requestID = "sim-\(index)"
    let request = HTTPRequest(
      method: "GET",
      path: "/whoami",
      headers: [("X-Tenant", tenant)],
      id: requestID
    )
    let response = await app.respond(to: request)
    guard response.status == 200 else { return .failed }
    // The whole body is compared, so any field from another request counts as cross-talk.
    // (Comparing text, not parsed JSON, keeps 100,000 checks quick under ThreadSanitizer.)
    let expected = """
      {"requestID":"\(requestID)","tenant":"\(tenant)",\
      "repositoryTenant":"\(tenant)","repositorySawRequestID":"\(requestID)"}
      """
    return response.body == expected ? .correct : .crossTalk
  }
}
