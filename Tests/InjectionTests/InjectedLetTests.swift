import Injection
import Testing

// `Injected` stored as a `let` and read with `callAsFunction()`, in each shape a dependency's
// reader takes: a `Sendable` final class (which cannot hold `@Injected`), an actor, a struct (made
// on the spot, held in a global `let`, or an element of an array), a generic holder and a
// main-actor class.

/// A key of these tests only, which none of them sets globally: the tests of a suite run in
/// parallel, and most of them read its default.
private struct LetNameKey: InjectionKey {
  static let currentValue = "default"
}

/// The key of the one test that sets a global value, so that no other test can see it.
private struct GlobalLetNameKey: InjectionKey {
  static let currentValue = "default"
}

extension InjectedValues {
  fileprivate var letName: String {
    get { self[LetNameKey.self] }
    set { self[LetNameKey.self] = newValue }
  }

  fileprivate var globalLetName: String {
    get { self[GlobalLetNameKey.self] }
    set { self[GlobalLetNameKey.self] = newValue }
  }

  /// An accessor isolated to the main actor, as every accessor of a default-MainActor module is.
  @MainActor
  fileprivate var mainActorName: String {
    get { self[LetNameKey.self] }
    set { self[LetNameKey.self] = newValue }
  }
}

/// Something that reads `letName` through a stored `Injected`.
private protocol NameReader: Sendable {
  func read() async -> String
}

private final class SendableClient: NameReader, Sendable {
  let name = Injected(\.letName)
  func read() -> String { name() }
}

/// `SendableClient` over the key that one test sets globally.
private final class GlobalNameClient: Sendable {
  let name = Injected(\.globalLetName)
}

private actor ActorClient: NameReader {
  let name = Injected(\.letName)
  func read() -> String { name() }
}

private struct StructClient: NameReader {
  let name = Injected(\.letName)
  func read() -> String { name() }
}

/// Generic over the dependency's type: the wrapper is built from a key path it is given.
private final class GenericHolder<Value: Sendable>: Sendable {
  let dependency: Injected<Value>
  init(_ keyPath: any KeyPath<InjectedValues, Value> & Sendable) {
    dependency = Injected(keyPath)
  }
}

extension GenericHolder: NameReader where Value == String {
  func read() -> String { dependency() }
}

@MainActor
private final class MainActorClient: NameReader {
  let name = Injected(\.mainActorName)
  func read() -> String { name() }
}

/// A struct stored in a global `let`, and structs stored in an array: two more places users put
/// their readers.
private let globalClient = StructClient()
private let arrayOfClients = [StructClient(), StructClient()]

/// The shapes, each made by a function so that a test can make one inside or outside a scope.
enum InjectedLetShape: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case sendableFinalClass, actor, structure, globalStruct, arrayElement, genericHolder
  case mainActorClass

  var testDescription: String { rawValue }

  fileprivate func make() async -> any NameReader {
    switch self {
    case .sendableFinalClass: SendableClient()
    case .actor: ActorClient()
    case .structure: StructClient()
    case .globalStruct: globalClient
    case .arrayElement: arrayOfClients[1]
    case .genericHolder: GenericHolder(\.letName)
    case .mainActorClass: await MainActorClient()
    }
  }
}

@Suite("Injected stored as a let")
struct InjectedLetTests {
  @Test(
    "Every call resolves in the scope active at that call",
    arguments: InjectedLetShape.allCases
  )
  func resolvesOnEveryCall(shape: InjectedLetShape) async {
    let reader = await shape.make()
    #expect(await reader.read() == "default")
    await withInjectedValues {
      $0.letName = "outer"
    } operation: {
      #expect(await reader.read() == "outer")
      await withInjectedValues {
        $0.letName = "inner"
      } operation: {
        #expect(await reader.read() == "inner")
        #expect(await Task { await reader.read() }.value == "inner", "Task {} inherits")
      }
      #expect(await reader.read() == "outer")
    }
    #expect(await reader.read() == "default")
  }

  @Test(
    "A reader made inside a scope sees the outer values after it",
    arguments: InjectedLetShape.allCases
  )
  func keepsNoScope(shape: InjectedLetShape) async {
    let reader = await withInjectedValues {
      $0.letName = "scoped"
    } operation: {
      await shape.make()
    }
    #expect(await reader.read() == "default")
  }

  @Test("Where no scope overrides the key, the call reads the global value")
  func readsTheGlobalValue() {
    let client = GlobalNameClient()
    InjectedValues[\.globalLetName] = "global"
    defer { InjectedValues.resetGlobal(\.globalLetName) }
    #expect(client.name() == "global")
    withInjectedValues {
      $0.globalLetName = "scoped"
    } operation: {
      #expect(client.name() == "scoped")
    }
  }

  @Test("A call reads the same value as @Injected and as InjectedValues[keyPath]")
  func matchesTheOtherReads() {
    struct Both {
      @Injected(\.letName) var wrapped
      let stored = Injected(\.letName)
    }
    withInjectedValues {
      $0.letName = "same"
    } operation: {
      let both = Both()
      #expect(both.stored() == both.wrapped)
      #expect(both.stored() == InjectedValues[\.letName])
    }
  }
}
