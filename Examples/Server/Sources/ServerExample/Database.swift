public import Injection

/// An in-process stand-in for a connection to a tenant's database.
///
/// It records which requests ran queries on it, and whether it was closed, so that tests can
/// check that each request gets a connection of its own and that every connection is closed.
/// Each request's scope opens one on its first read of `\.databaseConnection`, and closes it
/// when the request ends:
///
/// ```swift
/// @Injected(\.databaseConnection) var connection
///
/// await connection.query(forRequest: "req-1")   // opens the connection, on the first read
/// connection.requestIDs                        // ["req-1"]
/// ```
public final class DatabaseConnection: Sendable {
  /// The connection's number, counted from 1 by the database that opened it; 0 outside any
  /// request.
  ///
  /// ```swift
  /// database.open(tenant: "acme").id   // 1 for the database's first connection
  /// ```
  public let id: Int

  /// The tenant whose database this connection reaches.
  ///
  /// ```swift
  /// database.open(tenant: "acme").tenant   // "acme"
  /// ```
  public let tenant: String

  /// The counters of the database that opened it, if any.
  private let counts: Lock<Database.Counts>?
  private let state = Lock(State())

  private struct State {
    var requestIDs: [String] = []
    var queries = 0
    var queriesAfterClose = 0
    var isClosed = false
  }

  /// Creates a connection; ``Database/open(tenant:)`` is how the example gets one.
  ///
  /// - Parameters:
  ///   - id: The connection's number.
  ///   - tenant: The tenant whose database it reaches.
  ///   - counts: The counters of the database that opened it; `nil` for one that no database
  ///     opened.
  init(id: Int, tenant: String, counts: Lock<Database.Counts>?) {
    self.id = id
    self.tenant = tenant
    self.counts = counts
  }

  /// The connection seen outside any request, which no database opened and nobody closes.
  ///
  /// ```swift
  /// InjectedValues[\.databaseConnection].id   // 0, outside any request
  /// ```
  public static let outsideRequest = DatabaseConnection(id: 0, tenant: "(none)", counts: nil)

  /// Runs a query for a request: it suspends once, as a round trip to the database would.
  ///
  /// ```swift
  /// await connection.query(forRequest: "req-1")
  /// ```
  ///
  /// - Parameter requestID: The request the query runs for; the connection remembers it.
  public func query(forRequest requestID: String) async {
    state.withLock { state in
      state.queries += 1
      if state.isClosed { state.queriesAfterClose += 1 }
      if !state.requestIDs.contains(requestID) { state.requestIDs.append(requestID) }
    }
    await Task.yield()  // stands in for the round trip
  }

  /// Closes the connection: it suspends once, as saying goodbye to a database would. Closing it
  /// again does nothing.
  ///
  /// ```swift
  /// await connection.close()
  /// connection.isClosed   // true
  /// ```
  public func close() async {
    await Task.yield()  // stands in for the goodbye
    let wasOpen = state.withLock { state in
      defer { state.isClosed = true }
      return !state.isClosed
    }
    if wasOpen { counts?.withLock { $0.closed += 1 } }
  }

  /// The IDs of the requests that ran queries on this connection, each once, in order.
  ///
  /// ```swift
  /// connection.requestIDs   // ["req-1"]: one request, as every request has its own
  /// ```
  public var requestIDs: [String] { state.withLock { $0.requestIDs } }

  /// How many queries ran on this connection.
  ///
  /// ```swift
  /// connection.queries   // 1 after one `/whoami` request
  /// ```
  public var queries: Int { state.withLock { $0.queries } }

  /// How many queries ran after the connection was closed: 0 unless something kept it too long.
  ///
  /// ```swift
  /// connection.queriesAfterClose   // 0
  /// ```
  public var queriesAfterClose: Int { state.withLock { $0.queriesAfterClose } }

  /// Whether ``close()`` has finished.
  ///
  /// ```swift
  /// connection.isClosed   // true once the request that opened it has ended
  /// ```
  public var isClosed: Bool { state.withLock { $0.isClosed } }
}

/// An in-process stand-in for a database server: it opens connections, numbers them, and counts
/// how many it opened and how many were closed.
///
/// The app owns one (through its ``RequestScopeMiddleware``), and each request opens at most one
/// connection, on first use. Tests pass their own to read its counters:
///
/// ```swift
/// let database = Database(keepsConnections: true)
/// let app = WhoAmIApp(middleware: RequestScopeMiddleware(database: database))
/// _ = await app.respond(to: request)
/// database.opened == database.closed   // true: the request closed what it opened
/// ```
public final class Database: Sendable {
  /// What the database counts; its connections hold it too, to count their closing. (They do
  /// not hold the database, which may hold them: that would be a reference cycle.)
  struct Counts {
    var opened = 0
    var closed = 0
  }

  private let counts = Lock(Counts())
  /// The connections opened so far, if `keepsConnections`.
  private let kept = Lock<[DatabaseConnection]>([])
  private let keepsConnections: Bool

  /// Creates a database with no connections.
  ///
  /// ```swift
  /// let database = Database()
  /// ```
  ///
  /// - Parameter keepsConnections: Whether to keep every connection it opens, for
  ///   ``connections``. Tests keep them; a server that runs for long should not.
  public init(keepsConnections: Bool = false) {
    self.keepsConnections = keepsConnections
  }

  /// Opens a connection to `tenant`'s database. It does not suspend, so it can run in the
  /// factory of a value built on first use, which is synchronous.
  ///
  /// ```swift
  /// let connection = database.open(tenant: "acme")   // connection.id == 1
  /// ```
  ///
  /// - Parameter tenant: The tenant whose database to reach.
  /// - Returns: A new connection, numbered after the ones opened before it.
  public func open(tenant: String) -> DatabaseConnection {
    counts.withLock { counts in
      counts.opened += 1
      let connection = DatabaseConnection(id: counts.opened, tenant: tenant, counts: self.counts)
      // Appended while the count is held, so that the kept connections are in order.
      if keepsConnections { kept.withLock { $0.append(connection) } }
      return connection
    }
  }

  /// How many connections it has opened.
  ///
  /// ```swift
  /// database.opened   // 1 after one `/whoami` request, 0 after a 404
  /// ```
  public var opened: Int { counts.withLock { $0.opened } }

  /// How many of its connections have been closed.
  ///
  /// ```swift
  /// database.closed   // equal to `opened` once every request has ended
  /// ```
  public var closed: Int { counts.withLock { $0.closed } }

  /// Every connection it has opened, in order; empty unless created with `keepsConnections`.
  ///
  /// ```swift
  /// database.connections.map(\.requestIDs)   // [["req-1"], ["req-2"]]
  /// ```
  public var connections: [DatabaseConnection] { kept.withLock { $0 } }
}

private struct DatabaseConnectionKey: InjectionKey {
  // Outside a request there is no connection to open; the default makes such reads visible.
  static let currentValue = DatabaseConnection.outsideRequest
}

extension InjectedValues {
  /// The current request's database connection, opened on its first read in the request
  /// (``RequestScopeMiddleware`` declares it); ``DatabaseConnection/outsideRequest`` outside any
  /// request.
  ///
  /// ```swift
  /// await withInjectedValues {
  ///   $0.lazy(\.databaseConnection) { database.open(tenant: "acme") } teardown: {
  ///     await $0.close()
  ///   }
  /// } operation: {
  ///   let connection = InjectedValues[\.databaseConnection]   // opens it
  ///   await connection.query(forRequest: "req-1")
  /// }
  /// // Here the connection is closed.
  /// ```
  public var databaseConnection: DatabaseConnection {
    get { self[DatabaseConnectionKey.self] }
    set { self[DatabaseConnectionKey.self] = newValue }
  }
}
