import Testing

@testable import ServerExample

/// What a database's connections show once every request of a run has ended, and the checks
/// that the load tests make on it.
struct DatabaseAudit {
  let opened: Int
  let closed: Int
  let connections: [DatabaseConnection]
  /// The connections that exactly one request used.
  let usedByOneRequest: Int

  /// Reads `database`, which must keep its connections.
  init(_ database: Database) {
    opened = database.opened
    closed = database.closed
    connections = database.connections
    usedByOneRequest = connections.filter { $0.requestIDs.count == 1 }.count
  }

  /// The counts, for the line a load test prints.
  var summary: String {
    "\(opened) database connections opened, \(closed) closed, \(usedByOneRequest) used by "
      + "exactly one request"
  }

  /// Checks that `requests` requests each opened one connection, which no other request saw,
  /// which reached their tenant, and which was closed before anything else queried it.
  ///
  /// - Parameters:
  ///   - requests: How many requests used the database.
  ///   - connectionOfRequest: The connection ID each of those requests reported, by request ID.
  ///   - tenantOfRequest: The tenant of each of those requests, by request ID.
  ///   - sourceLocation: Where failures are reported: the caller.
  func expectOneConnectionPerRequest(
    _ requests: Int,
    connectionOfRequest: [String: Int],
    tenantOfRequest: [String: String],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(opened == requests, "one connection opened per request", sourceLocation: sourceLocation)
    #expect(closed == opened, "every connection opened was closed", sourceLocation: sourceLocation)
    #expect(connections.count == opened, sourceLocation: sourceLocation)
    #expect(connectionOfRequest.count == requests, sourceLocation: sourceLocation)
    #expect(
      Set(connectionOfRequest.values).count == connectionOfRequest.count,
      "no two responses name the same connection",
      sourceLocation: sourceLocation
    )

    var problems: [String] = []
    for connection in connections {
      let requestIDs = connection.requestIDs
      guard requestIDs.count == 1, let requestID = requestIDs.first else {
        problems.append("connection \(connection.id) was used by requests \(requestIDs)")
        continue
      }
      if connectionOfRequest[requestID] != connection.id {
        problems.append(
          "connection \(connection.id) served \(requestID), which reported "
            + "\(connectionOfRequest[requestID].map(String.init) ?? "no connection")"
        )
      }
      if tenantOfRequest[requestID] != connection.tenant {
        problems.append("connection \(connection.id) reached \(connection.tenant) for \(requestID)")
      }
      if !connection.isClosed || connection.queriesAfterClose != 0 {
        problems.append(
          "connection \(connection.id): closed \(connection.isClosed), "
            + "\(connection.queriesAfterClose) queries after closing"
        )
      }
    }
    #expect(problems.isEmpty, "\(problems.prefix(5))", sourceLocation: sourceLocation)
  }
}
