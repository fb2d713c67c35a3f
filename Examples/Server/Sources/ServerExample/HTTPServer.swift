/// A small HTTP/1.1 server on 127.0.0.1 that runs each request in its own dependency scope.
///
/// It listens as soon as it is created, so ``port`` is known before it runs; each connection is
/// served by a child task of ``run()``. Cancel the task running ``run()`` to stop the server.
///
/// ```swift
/// let server = try HTTPServer(port: 0)   // 0: any free port
/// let running = Task { try await server.run() }
/// print("http://127.0.0.1:\(server.port)/whoami")
/// // …
/// running.cancel()                        // stops accepting, and ends every connection
/// try await running.value
/// ```
public final class HTTPServer: Sendable {
  /// The port the server listens on: the one the system chose, if created with port 0.
  public let port: UInt16
  private let listener: Socket
  private let app: WhoAmIApp

  /// At most this many connections are served at once; more wait in the listen queue.
  static let maximumConnections = 512

  /// Starts listening on 127.0.0.1.
  ///
  /// - Parameters:
  ///   - port: The port; 0 lets the system choose a free one.
  ///   - app: The application that answers each request.
  /// - Throws: A ``SocketError`` if the port cannot be bound, for example because it is in use.
  public init(port: UInt16 = 8080, app: WhoAmIApp = WhoAmIApp()) throws {
    listener = try Socket.makeListener(port: port)
    self.port = try listener.localPort()
    self.app = app
  }

  /// Accepts connections and serves each one in a child task, until the calling task is
  /// cancelled; then it ends every connection and returns. Call it once.
  ///
  /// - Throws: A ``SocketError`` if accepting fails for a reason other than cancellation.
  public func run() async throws {
    let poller = try Poller()
    defer { poller.stop() }
    try await withThrowingTaskGroup(of: Void.self) { group in
      var open = 0
      var accepted = 0
      while let client = try await nextClient(poller) {
        // A finished child stays in the group until `next()` collects it. Collecting one
        // whenever the group is full bounds both its memory and the connections served at once.
        if open == Self.maximumConnections {
          _ = try await group.next()
          open -= 1
        }
        accepted += 1
        let connection = Connection(socket: client, number: accepted, app: app, poller: poller)
        group.addTask { await connection.serve() }
        open += 1
      }
      group.cancelAll()
    }
  }

  /// Returns the next connection, waiting for one if need be; `nil` once the task is cancelled.
  private func nextClient(_ poller: Poller) async throws -> Socket? {
    while !Task.isCancelled {
      if let client = try listener.acceptClient() { return client }
      do {
        try await poller.wait(for: .readable, on: listener.descriptor, timeoutMilliseconds: nil)
      } catch is CancellationError {
        return nil
      }
    }
    return nil
  }
}
