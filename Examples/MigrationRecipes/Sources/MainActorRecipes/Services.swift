// The same shapes in a module isolated to the main actor by default, where every class is a
// main-actor class and every key a main-actor key.
import Injection
import Observation

// A main-actor singleton as the default of a main-actor key: it compiles as it is, because the
// key's conformance is isolated to the main actor (`InferIsolatedConformances`). A
// `static var shared` compiles too, but the key keeps the first value it reads: make it a `let`.
final class SharedAppState {
  static let shared = SharedAppState()

  private(set) var isLoggedIn = false

  func logIn() { isLoggedIn = true }
}

private struct SharedAppStateKey: InjectionKey {
  static let currentValue = SharedAppState.shared
}

extension InjectedValues {
  var appState: SharedAppState {
    get { self[SharedAppStateKey.self] }
    set { self[SharedAppStateKey.self] = newValue }
  }
}

// An `@Observable` class as the default of a main-actor key compiles as it is too.
@Observable
final class SessionStore {
  var userName: String?

  func logIn(as name: String) { userName = name }
}

private struct SessionStoreKey: InjectionKey {
  static let currentValue = SessionStore()
}

extension InjectedValues {
  var sessionStore: SessionStore {
    get { self[SessionStoreKey.self] }
    set { self[SessionStoreKey.self] = newValue }
  }
}

// `@MainActor static var currentValue` needs only `var` → `let` here: the key is a main-actor key
// already, so `@MainActor` changes nothing.
final class ThemeStore {
  private(set) var theme = "light"

  func use(_ theme: String) { self.theme = theme }
}

private struct ThemeStoreKey: InjectionKey {
  // Before: @MainActor static var currentValue = ThemeStore()
  @MainActor static let currentValue = ThemeStore()
}

extension InjectedValues {
  var themeStore: ThemeStore {
    get { self[ThemeStoreKey.self] }
    set { self[ThemeStoreKey.self] = newValue }
  }
}

/// A stand-in for Combine's `Published`, of the same shape; see `Recipes/IsolatedInitializers`.
@propertyWrapper
struct Published<Value> {
  final class Publisher {}
  let projectedValue = Publisher()
  var wrappedValue: Value
}

// A class with a property-wrapper stored property, as the default of a main-actor key: it
// compiles as it is, initializer and all.
final class CartStore {
  @Published private(set) var items: [String] = []

  func add(_ item: String) { items.append(item) }
}

private struct CartStoreKey: InjectionKey {
  static let currentValue = CartStore()
}

extension InjectedValues {
  var cartStore: CartStore {
    get { self[CartStoreKey.self] }
    set { self[CartStoreKey.self] = newValue }
  }
}

// Subclasses of a generic base class, as the default of a main-actor key: main-actor classes are
// `Sendable`, subclasses included, so they compile as they are.
struct Role: Sendable, Equatable {
  let name: String
}

protocol RoleStoring: Sendable {
  func add(_ role: Role)
  func roles() -> [Role]
}

class RecordStore<Record> {
  private var records: [Record] = []

  func insert(_ record: Record) { records.append(record) }
  func fetchAll() -> [Record] { records }
}

final class RoleStore: RecordStore<Role>, RoleStoring {
  func add(_ role: Role) { insert(role) }
  func roles() -> [Role] { fetchAll() }
}

private struct RoleStoreKey: InjectionKey {
  static let currentValue: any RoleStoring = RoleStore()
}

extension InjectedValues {
  var roleStore: any RoleStoring {
    get { self[RoleStoreKey.self] }
    set { self[RoleStoreKey.self] = newValue }
  }
}

// A main-actor class whose initializer takes a class that is not `Sendable`, as the default of a
// main-actor key: it compiles as it is, initializer and all.
final class EventDispatcher {
  private(set) var sent: [String] = []

  func send(_ event: String) { sent.append(event) }
}

final class Analytics {
  let dispatcher: EventDispatcher

  init(dispatcher: EventDispatcher) {
    self.dispatcher = dispatcher
  }

  func track(_ event: String) { dispatcher.send(event) }
}

private struct AnalyticsKey: InjectionKey {
  static let currentValue = Analytics(dispatcher: EventDispatcher())
}

extension InjectedValues {
  var analytics: Analytics {
    get { self[AnalyticsKey.self] }
    set { self[AnalyticsKey.self] = newValue }
  }
}
