import Dispatch
import Testing

@testable import Injection

// The recipes of Docs/ComingFromOtherLibraries.md whose behaviour matters, as the guide writes
// them. Every key here is private to this file, so the global values these tests set are seen
// by no other test.

private protocol RecipeClient: Sendable {
  func fetch(_ path: String) -> String
}

private struct LiveRecipeClient: RecipeClient {
  func fetch(_ path: String) -> String { "live \(path)" }
}

private struct MockRecipeClient: RecipeClient {
  func fetch(_ path: String) -> String { "mock \(path)" }
}

private struct LoggingRecipeClient: RecipeClient {
  let wrapped: any RecipeClient
  func fetch(_ path: String) -> String { "logged(\(wrapped.fetch(path)))" }
}

private struct RecipeClientKey: InjectionKey {
  static let currentValue: any RecipeClient = LiveRecipeClient()
}

/// A session that caches what it builds, as in "Resetting a session".
private final class RecipeSession: @unchecked Sendable {
  // Safe: `cachedCart` is only touched under `lock`.
  let user: String
  private let lock = DispatchQueue(label: "RecipeSession")
  private var cachedCart: [String]?

  init(user: String) { self.user = user }

  var cart: [String] {
    lock.sync {
      if let cachedCart { return cachedCart }
      let made = ["gift for \(user)"]
      cachedCart = made
      return made
    }
  }
}

private struct RecipeSessionKey: InjectionKey {
  static let currentValue = RecipeSession(user: "guest")
}

private final class RecipeReportClient: Sendable {
  let customerID: Int
  init(customerID: Int) { self.customerID = customerID }
}

/// One client per customer, as in "Parameterized factories".
private final class RecipeReportClients: @unchecked Sendable {
  // Safe: `clients` is only touched under `lock`.
  private let lock = DispatchQueue(label: "RecipeReportClients")
  private var clients: [Int: RecipeReportClient] = [:]

  func client(for customerID: Int) -> RecipeReportClient {
    lock.sync {
      if let client = clients[customerID] { return client }
      let client = RecipeReportClient(customerID: customerID)
      clients[customerID] = client
      return client
    }
  }
}

private struct RecipeReportClientsKey: InjectionKey {
  static let currentValue = RecipeReportClients()
}

private final class RecipeUnitOfWork: Sendable {}

private struct RecipeUnitOfWorkKey: InjectionKey {
  static let currentValue = RecipeUnitOfWork()
}

/// One instance while someone holds it, as in "Shared scope".
private final class RecipeWeakShared<Object: AnyObject & Sendable>: @unchecked Sendable {
  // Safe: `object` is only touched under `lock`.
  private let lock = DispatchQueue(label: "RecipeWeakShared")
  private weak var object: Object?
  private let make: @Sendable () -> Object

  init(_ make: @escaping @Sendable () -> Object) { self.make = make }

  var instance: Object {
    lock.sync {
      if let object { return object }
      let made = make()
      object = made
      return made
    }
  }
}

private final class RecipePlayer: Sendable {}

private struct RecipePlayersKey: InjectionKey {
  static let currentValue = RecipeWeakShared { RecipePlayer() }
}

/// A value kept for a while, as in "Time-to-live".
private final class RecipeExpiring<Value: Sendable>: @unchecked Sendable {
  // Safe: `cached` is only touched under `lock`.
  private let lock = DispatchQueue(label: "RecipeExpiring")
  private var cached: (value: Value, madeAt: UInt64)?
  private let lifetime: UInt64
  private let now: @Sendable () -> UInt64
  private let make: @Sendable () -> Value

  init(
    nanoseconds: UInt64,
    now: @escaping @Sendable () -> UInt64,
    make: @escaping @Sendable () -> Value
  ) {
    self.lifetime = nanoseconds
    self.now = now
    self.make = make
  }

  var value: Value {
    lock.sync {
      let time = now()
      if let cached, time - cached.madeAt < lifetime { return cached.value }
      let made = make()
      cached = (made, time)
      return made
    }
  }
}

extension InjectedValues {
  fileprivate var recipeClient: any RecipeClient {
    get { self[RecipeClientKey.self] }
    set { self[RecipeClientKey.self] = newValue }
  }

  fileprivate var recipeSession: RecipeSession {
    get { self[RecipeSessionKey.self] }
    set { self[RecipeSessionKey.self] = newValue }
  }

  fileprivate var recipeReportClients: RecipeReportClients {
    get { self[RecipeReportClientsKey.self] }
    set { self[RecipeReportClientsKey.self] = newValue }
  }

  fileprivate var recipeUnitOfWork: RecipeUnitOfWork {
    get { self[RecipeUnitOfWorkKey.self] }
    set { self[RecipeUnitOfWorkKey.self] = newValue }
  }

  fileprivate var recipePlayers: RecipeWeakShared<RecipePlayer> {
    get { self[RecipePlayersKey.self] }
    set { self[RecipePlayersKey.self] = newValue }
  }
}

private struct RecipeUnitReader {
  @Injected(\.recipeUnitOfWork) var unitOfWork
}

/// A counter that a `@Sendable` clock closure can read while the test moves it.
private final class FakeClock: @unchecked Sendable {
  // Safe: `time` is only touched under `lock`.
  private let lock = DispatchQueue(label: "FakeClock")
  private var time: UInt64 = 0

  func advance(by nanoseconds: UInt64) { lock.sync { time += nanoseconds } }
  var now: UInt64 { lock.sync { time } }
}

/// These tests set global values of this file's keys, so they run one at a time.
@Suite("Recipes for users of other libraries", .serialized)
struct PeerRecipesTests {
  @Test("Replacing the session drops what it cached; resetting goes back to the default session")
  func sessionReset() {
    defer { InjectedValues.resetGlobal(\.recipeSession) }
    InjectedValues[\.recipeSession] = RecipeSession(user: "ada")
    let first = InjectedValues[\.recipeSession]
    #expect(first.cart == ["gift for ada"])
    #expect(InjectedValues[\.recipeSession] === first)  // cached for the session
    InjectedValues[\.recipeSession] = RecipeSession(user: "bob")
    #expect(InjectedValues[\.recipeSession] !== first)
    #expect(InjectedValues[\.recipeSession].cart == ["gift for bob"])
    InjectedValues.resetGlobal(\.recipeSession)
    #expect(InjectedValues[\.recipeSession].user == "guest")
  }

  @Test("A factory dependency keeps one instance per parameter, and a scope can bring its own")
  func perParameterCaching() {
    let clients = InjectedValues[\.recipeReportClients]
    #expect(clients.client(for: 1) === clients.client(for: 1))
    #expect(clients.client(for: 1) !== clients.client(for: 2))
    #expect(clients.client(for: 2).customerID == 2)
    withInjectedValues {
      $0.lazy(\.recipeReportClients) { RecipeReportClients() }
    } operation: {
      #expect(InjectedValues[\.recipeReportClients].client(for: 1) !== clients.client(for: 1))
    }
  }

  @Test("A lazy value is one instance per scope, shared by every reader in it")
  func graphScope() async {
    let (first, second, inChild) = await withInjectedValues {
      $0.lazy(\.recipeUnitOfWork) { RecipeUnitOfWork() }
    } operation: { () async in
      let child = await Task { RecipeUnitReader().unitOfWork }.value
      return (RecipeUnitReader().unitOfWork, RecipeUnitReader().unitOfWork, child)
    }
    #expect(first === second)
    #expect(first === inChild)
    let other = await withInjectedValues {
      $0.lazy(\.recipeUnitOfWork) { RecipeUnitOfWork() }
    } operation: {
      RecipeUnitReader().unitOfWork
    }
    #expect(other !== first)
  }

  @Test("The weak cache hands out one instance while it is held, and a new one after")
  func sharedScope() {
    let made = AtomicCounter()
    let players = RecipeWeakShared {
      made.increment()
      return RecipePlayer()
    }
    withInjectedValues {
      $0.recipePlayers = players
    } operation: {
      var held: RecipePlayer? = InjectedValues[\.recipePlayers].instance
      #expect(InjectedValues[\.recipePlayers].instance === held)
      #expect(made.value == 1)
      held = nil
      _ = InjectedValues[\.recipePlayers].instance  // released: a new player
      #expect(made.value == 2)
    }
  }

  @Test("A decorator wraps whatever the outer scope, the global value or the default provides")
  func decorators() {
    let decorated = withInjectedValues {
      $0.recipeClient = LoggingRecipeClient(wrapped: $0.recipeClient)
    } operation: {
      InjectedValues[\.recipeClient].fetch("/cart")
    }
    #expect(decorated == "logged(live /cart)")
    let overMock = withInjectedValues {
      $0.recipeClient = MockRecipeClient()
    } operation: {
      withInjectedValues {
        $0.recipeClient = LoggingRecipeClient(wrapped: $0.recipeClient)
      } operation: {
        InjectedValues[\.recipeClient].fetch("/cart")
      }
    }
    #expect(overMock == "logged(mock /cart)")
  }

  @Test("The expiring cache keeps its value for its lifetime, then makes a new one")
  func timeToLive() {
    let clock = FakeClock()
    let made = AtomicCounter()
    let tokens = RecipeExpiring(nanoseconds: 100, now: { clock.now }) {
      made.increment()
      return made.value
    }
    #expect(tokens.value == 1)
    clock.advance(by: 99)
    #expect(tokens.value == 1)
    clock.advance(by: 1)
    #expect(tokens.value == 2)
    #expect(made.value == 2)
  }

  @Test("Launch arguments set global values once; without the argument the default stays")
  func launchArguments() {
    defer { InjectedValues.resetGlobal(\.recipeClient) }
    func applyLaunchArguments(_ arguments: [String]) {
      if arguments.contains("-mockAPI") { InjectedValues[\.recipeClient] = MockRecipeClient() }
    }
    applyLaunchArguments(["App"])
    #expect(InjectedValues[\.recipeClient].fetch("/") == "live /")
    applyLaunchArguments(["App", "-mockAPI"])
    #expect(InjectedValues[\.recipeClient].fetch("/") == "mock /")
    // A scope still wins over the value set at launch.
    withInjectedValues {
      $0.recipeClient = LiveRecipeClient()
    } operation: {
      #expect(InjectedValues[\.recipeClient].fetch("/") == "live /")
    }
  }

  @Test("$0 = .empty in an inner scope gives back the default over an outer override")
  func resettingToEmptyValues() {
    let result = withInjectedValues {
      $0.recipeClient = MockRecipeClient()
    } operation: {
      withInjectedValues {
        $0 = .empty
      } operation: {
        InjectedValues[\.recipeClient].fetch("/cart")
      }
    }
    #expect(result == "live /cart")
  }

  @Test("A stream made with an async bound closure yields in its maker's scope, read elsewhere")
  func asyncBoundStream() async {
    let stream = await withInjectedValues {
      $0.recipeClient = MockRecipeClient()
    } operation: {
      AsyncStream(
        unfolding: InjectedValues.current.bind { () async -> String? in
          await Task.yield()
          return InjectedValues[\.recipeClient].fetch("/feed")
        }
      )
    }
    var first: String?
    for await page in stream {
      first = page
      break
    }
    #expect(first == "mock /feed")
  }
}
