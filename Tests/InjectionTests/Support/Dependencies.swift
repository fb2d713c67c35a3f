import Testing

@testable import Injection

// Dependencies shared by the tests. None of them is ever set globally: a test that sets a
// global value declares a key of its own, so tests running in parallel never see each other.

protocol Greeting: Sendable {
  func greet(_ name: String) -> String
}

struct EnglishGreeting: Greeting {
  func greet(_ name: String) -> String { "Hello, \(name)" }
}

struct MockGreeting: Greeting {
  let word: String
  func greet(_ name: String) -> String { "\(word), \(name)" }
}

struct GreetingKey: InjectionKey {
  static let currentValue: any Greeting = EnglishGreeting()
}

/// A label that scopes override, to tell them apart in tests that run many at once.
struct ScopeLabelKey: InjectionKey {
  static let currentValue = "unscoped"
}

struct CountKey: InjectionKey {
  static let currentValue = 0
}

struct NameKey: InjectionKey {
  static let currentValue = "default"
}

/// A key read only through a seed-style accessor.
struct SeedCountKey: InjectionKey {
  static let currentValue = 100
}

struct OptionalTokenKey: InjectionKey {
  static let currentValue: String? = "default-token"
}

/// A class dependency, for lifetime tests.
final class Service: Sendable {
  let id: Int
  init(id: Int) { self.id = id }
}

struct ServiceKey: InjectionKey {
  static let currentValue = Service(id: -1)
}

extension InjectedValues {
  var greeting: any Greeting {
    get { self[GreetingKey.self] }
    set { self[GreetingKey.self] = newValue }
  }

  var scopeLabel: String {
    get { self[ScopeLabelKey.self] }
    set { self[ScopeLabelKey.self] = newValue }
  }

  var count: Int {
    get { self[CountKey.self] }
    set { self[CountKey.self] = newValue }
  }

  var name: String {
    get { self[NameKey.self] }
    set { self[NameKey.self] = newValue }
  }

  /// Written the seed's way, against the type.
  var seedCount: Int {
    get { Self[SeedCountKey.self] }
    set { Self[SeedCountKey.self] = newValue }
  }

  var token: String? {
    get { self[OptionalTokenKey.self] }
    set { self[OptionalTokenKey.self] = newValue }
  }

  var service: Service {
    get { self[ServiceKey.self] }
    set { self[ServiceKey.self] = newValue }
  }

  /// A get-only view of another dependency.
  var shoutedName: String { name.uppercased() }
}

/// Removes the global value of `key`, so that a test leaves no global state behind.
func removeGlobal<Key: InjectionKey>(_ key: Key.Type) {
  InjectedValues.resetGlobals(of: [Key.self])
}

/// A counter that many threads can bump.
final class AtomicCounter: @unchecked Sendable {
  // Safe: `value` is only touched under `lock`.
  private let lock = Lock()
  private var count = 0

  func increment() { lock.withLock { count += 1 } }
  var value: Int { lock.withLock { count } }
}

// MARK: - Both accessor styles

/// The two ways an accessor can be written: against the instance (`self[Key.self]`) or, as in
/// the seed pattern, against the type (`Self[Key.self]`). Rules that hold for one must hold for
/// both, so tests of them take the style as an argument.
enum AccessorStyle: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case instance
  case seed

  var testDescription: String { "\(rawValue)-style accessor" }

  /// The accessor of `StyledKey` in this style.
  var styled: any WritableKeyPath<InjectedValues, String> & Sendable {
    switch self {
    case .instance: \.instanceStyled
    case .seed: \.seedStyled
    }
  }

  /// The accessor of `OtherStyledKey` in this style.
  var other: any WritableKeyPath<InjectedValues, String> & Sendable {
    switch self {
    case .instance: \.instanceOther
    case .seed: \.seedOther
    }
  }
}

/// Keys read through both accessor styles; never set globally.
struct StyledKey: InjectionKey {
  static let currentValue = "default"
}

struct OtherStyledKey: InjectionKey {
  static let currentValue = "other default"
}

extension InjectedValues {
  var instanceStyled: String {
    get { self[StyledKey.self] }
    set { self[StyledKey.self] = newValue }
  }

  var seedStyled: String {
    get { Self[StyledKey.self] }
    set { Self[StyledKey.self] = newValue }
  }

  var instanceOther: String {
    get { self[OtherStyledKey.self] }
    set { self[OtherStyledKey.self] = newValue }
  }

  var seedOther: String {
    get { Self[OtherStyledKey.self] }
    set { Self[OtherStyledKey.self] = newValue }
  }
}

/// Reads `StyledKey` through the wrapper, as app code does, in both accessor styles.
struct StyledReader: Sendable {
  @Injected(\.instanceStyled) var instanceStyled
  @Injected(\.seedStyled) var seedStyled

  func styled(_ style: AccessorStyle) -> String {
    style == .instance ? instanceStyled : seedStyled
  }
}
