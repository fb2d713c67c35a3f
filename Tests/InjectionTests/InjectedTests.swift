import Testing

@testable import Injection

private struct WrapperGlobalKey: InjectionKey {
  static let currentValue = "default"
}

extension InjectedValues {
  fileprivate var wrapperGlobal: String {
    get { self[WrapperGlobalKey.self] }
    set { self[WrapperGlobalKey.self] = newValue }
  }
}

private struct WrapperConfigKey: InjectionKey {
  static let currentValue = Config(name: "live", timeout: 30)
}

extension InjectedValues {
  fileprivate var wrapperConfig: Config {
    get { self[WrapperConfigKey.self] }
    set { self[WrapperConfigKey.self] = newValue }
  }
}

private struct ConfigHolder {
  @Injected(\.wrapperConfig) var config
}

private struct Greeter {
  @Injected(\.greeting) var greeting
  @Injected(\.count) var count: Int

  func greet() -> String { greeting.greet("Ada") }
}

private struct WrapperSetter {
  @Injected(\.wrapperGlobal) var value: String
}

private struct ReadOnlyHolder {
  @Injected(\.shoutedName) var shouted: String
}

// MARK: - Accessors of every kind, for the read and write paths of the wrapper

private struct ShapeWordKey: InjectionKey {
  // Already upper-case, so that a view that upper-cases it returns the same string by default:
  // a wrapper that learnt the key from one read and then read it directly would pass here and
  // be wrong once the key is overridden with a lower-case word.
  static let currentValue = "HI"
}

private struct ShapePortKey: InjectionKey {
  static let currentValue = 8_080
}

// Keys that one test each sets globally, so that tests running in parallel do not see them.

private struct ShapeWrittenPortKey: InjectionKey {
  static let currentValue = 8_080
}

private struct ShapeMainWordKey: InjectionKey {
  static let currentValue = "HI"
}

private struct ShapeWrittenWordKey: InjectionKey {
  static let currentValue = "HI"
}

private struct ShapeSeedKey: InjectionKey {
  static let currentValue = "seed default"
}

extension InjectedValues {
  fileprivate var shapeWord: String {
    get { self[ShapeWordKey.self] }
    set { self[ShapeWordKey.self] = newValue }
  }

  /// A read-only view over another key.
  fileprivate var shapeShout: String { shapeWord.uppercased() }

  /// A transform of one key of the same type, with a setter that inverts it.
  fileprivate var shapeNextPort: Int {
    get { self[ShapePortKey.self] + 1 }
    set { self[ShapePortKey.self] = newValue - 1 }
  }

  fileprivate var shapeWrittenNextPort: Int {
    get { self[ShapeWrittenPortKey.self] + 1 }
    set { self[ShapeWrittenPortKey.self] = newValue - 1 }
  }

  fileprivate var shapeWrittenWord: String {
    get { self[ShapeWrittenWordKey.self] }
    set { self[ShapeWrittenWordKey.self] = newValue }
  }

  fileprivate var shapeWrittenShout: String { shapeWrittenWord.uppercased() }

  /// A seed-style forwarder.
  fileprivate var shapeSeed: String {
    get { Self[ShapeSeedKey.self] }
    set { Self[ShapeSeedKey.self] = newValue }
  }

  /// An accessor isolated to the main actor: its key path is not `Sendable`.
  @MainActor
  fileprivate var shapeMainWord: String {
    get { self[ShapeMainWordKey.self] }
    set { self[ShapeMainWordKey.self] = newValue }
  }

  @MainActor
  fileprivate var shapeMainShout: String { shapeMainWord.uppercased() }
}

/// Wrappers over every kind of accessor, in a generic type, as the benchmarks' shapes hold them.
private struct ShapeHolder<Payload> {
  @Injected(\.shapeWord) var word
  @Injected(\.shapeShout) var shout
  @Injected(\.shapeNextPort) var nextPort
  @Injected(\.shapeSeed) var seed
  @Injected(\.shapeWrittenWord) var writtenWord
  @Injected(\.shapeWrittenShout) var writtenShout
  let payload: Payload
}

private final class ShapeObject {
  @Injected(\.shapeShout) var shout
  @Injected(\.shapeNextPort) var nextPort
  @Injected(\.shapeWrittenNextPort) var writtenNextPort
  @Injected(\.shapeSeed) var seed
}

private actor ShapeActor {
  @Injected(\.shapeShout) var shout
  @Injected(\.shapeNextPort) var nextPort

  func read() -> (String, Int) { (shout, nextPort) }
}

@MainActor
private final class ShapeViewModel {
  @Injected(\.shapeMainWord) var word
  @Injected(\.shapeMainShout) var shout
}

/// A wrapper over a main-actor accessor in a type that is not isolated, so it can be sent away.
private struct MainWordHolder: Sendable {
  @Injected var word: String

  @MainActor
  init() { _word = Injected(\.shapeMainWord) }
}

@inline(never)
private func makeShapeHolder() -> ShapeHolder<Int> {
  ShapeHolder(payload: 1)
}

@Suite("@Injected")
struct InjectedTests {
  @Test("The wrapper reads the value of the scope active at each access")
  func resolvesOnEveryAccess() {
    let greeter = Greeter()
    #expect(greeter.greet() == "Hello, Ada")
    withInjectedValues {
      $0.greeting = MockGreeting(word: "Hi")
    } operation: {
      #expect(greeter.greet() == "Hi, Ada")
    }
    #expect(greeter.greet() == "Hello, Ada")
  }

  @Test(
    "An object created in a scope and used after it sees the outer values; a snapshot keeps the scope"
  )
  func objectOutlivingScope() {
    let (greeter, snapshot) = withInjectedValues {
      $0.count = 7
    } operation: {
      (Greeter(), InjectedValues.current)
    }
    #expect(greeter.count == 0)
    withInjectedValues(snapshot) {
      #expect(greeter.count == 7)
    }
  }

  @Test("The wrapper's setter sets the global fallback, even inside a scope")
  func setterIsGlobal() async {
    defer { removeGlobal(WrapperGlobalKey.self) }
    let holder = WrapperSetter()
    await withInjectedValues {
      $0.count = 1
    } operation: {
      holder.value = "set by wrapper"
    }
    #expect(InjectedValues[\.wrapperGlobal] == "set by wrapper")
    #expect(await Task.detached { WrapperSetter().value }.value == "set by wrapper")
  }

  @Test("A member write through the wrapper starts from the global value, not the scope's")
  func memberWriteStartsFromGlobalValue() {
    defer { removeGlobal(WrapperConfigKey.self) }
    let holder = ConfigHolder()
    withInjectedValues {
      $0.wrapperConfig = Config(name: "test-mock", timeout: 1)
    } operation: {
      holder.config.timeout = 99
      #expect(holder.config == Config(name: "test-mock", timeout: 1), "the scope keeps its value")
    }
    #expect(holder.config == Config(name: "live", timeout: 99))
    #expect(InjectedValues[\.wrapperConfig] == Config(name: "live", timeout: 99))
  }

  @Test("A wrapper over a get-only accessor reads it")
  func readOnlyWrapperReads() {
    withInjectedValues {
      $0.name = "grace"
    } operation: {
      #expect(ReadOnlyHolder().shouted == "GRACE")
    }
  }

  #if os(macOS) || os(Linux)  // the platforms with exit tests (none on iOS, tvOS, watchOS)
    @Test("Assigning through a wrapper over a get-only accessor stops with a clear message")
    func readOnlyWrapperAssignmentStops() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        ReadOnlyHolder().shouted = "nope"
      }
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(message.contains("Injection: cannot assign through @Injected("))
      #expect(message.contains("get-only"))
    }
  #endif

  // MARK: - Accessors that are not plain forwarders

  @Test("A wrapper over a view reads the view, not the key it reads, in every scope")
  func viewIsReadThroughItsGetter() {
    let holder = makeShapeHolder()
    let object = ShapeObject()
    #expect(holder.shout == "HI")
    #expect(object.shout == "HI")
    withInjectedValues {
      $0.shapeWord = "hello"
    } operation: {
      #expect(holder.word == "hello")
      #expect(holder.shout == "HELLO")
      #expect(object.shout == "HELLO")
    }
    #expect(holder.shout == "HI")
  }

  @Test("A wrapper over a transform of a key returns the transformed value, and writes invert it")
  func transformIsReadThroughItsGetter() {
    defer { removeGlobal(ShapeWrittenPortKey.self) }
    let holder = makeShapeHolder()
    let object = ShapeObject()
    #expect(holder.nextPort == 8_081)
    withInjectedValues {
      $0[ShapePortKey.self] = 9_000
    } operation: {
      #expect(holder.nextPort == 9_001)
      #expect(object.nextPort == 9_001)
    }
    object.writtenNextPort = 7_001
    #expect(InjectedValues[ShapeWrittenPortKey.self] == 7_000, "the setter ran, inverting it")
    #expect(object.writtenNextPort == 7_001)
  }

  @Test("A wrapper over a seed-style accessor reads the scope and writes the global value")
  func seedStyleAccessorReadsAndWrites() {
    defer { removeGlobal(ShapeSeedKey.self) }
    let holder = makeShapeHolder()
    let object = ShapeObject()
    #expect(holder.seed == "seed default")
    withInjectedValues {
      $0.shapeSeed = "scoped"
    } operation: {
      #expect(holder.seed == "scoped")
      #expect(object.seed == "scoped")
      object.seed = "global"
      #expect(holder.seed == "scoped", "the scope's override still wins")
    }
    #expect(holder.seed == "global")
    #expect(InjectedValues[ShapeSeedKey.self] == "global")
  }

  @Test("A wrapper on an actor reads views and transforms in the caller's scope")
  func actorReadsInScope() async {
    let shapes = ShapeActor()
    await withInjectedValues {
      $0.shapeWord = "actor"
      $0[ShapePortKey.self] = 1
    } operation: {
      let (shout, port) = await shapes.read()
      #expect(shout == "ACTOR")
      #expect(port == 2)
    }
    let (shout, port) = await shapes.read()
    #expect(shout == "HI")
    #expect(port == 8_081)
  }

  @Test("A main-actor wrapper over a main-actor accessor reads and writes it")
  @MainActor
  func mainActorAccessorReadsAndWrites() {
    defer { removeGlobal(ShapeMainWordKey.self) }
    let model = ShapeViewModel()
    #expect(model.shout == "HI")
    withInjectedValues {
      $0.shapeMainWord = "main"
    } operation: {
      #expect(model.word == "main")
      #expect(model.shout == "MAIN")
    }
    model.word = "set on main"
    #expect(InjectedValues[ShapeMainWordKey.self] == "set on main")
    #expect(model.shout == "SET ON MAIN")
  }

  #if os(macOS) || os(Linux)  // the platforms with exit tests (none on iOS, tvOS, watchOS)
    @Test(
      "A wrapper over a main-actor accessor, read or written off the main actor, stops with a message",
      arguments: [false, true]
    )
    func mainActorAccessorOffTheMainActorStops(writes: Bool) async {
      let result = await #expect(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) { [writes] in
        let holder = await MainActor.run { MainWordHolder() }
        if writes {
          await Task.detached { holder.word = "off main" }.value
        } else {
          _ = await Task.detached { holder.word }.value
        }
      }
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(message.contains("isolated to the main actor was read or written off the main actor"))
    }
  #endif

  @Test("A wrapper over a main-actor accessor works on the main thread from a detached task too")
  func mainActorAccessorOnTheMainThreadFromElsewhere() async {
    let holder = await MainActor.run { MainWordHolder() }
    // Made on the main actor, read there again after a hop: the check is the thread, which is
    // the main actor's.
    let word = await MainActor.run { holder.word }
    #expect(word == ShapeMainWordKey.currentValue)
  }

  @Test("A write through the wrapper returns and sets the value, and a member write keeps the rest")
  func writeThroughWrapperSetsGlobal() {
    defer { removeGlobal(ShapeWrittenWordKey.self) }
    let holder = makeShapeHolder()
    holder.writtenWord = "written"
    #expect(holder.writtenWord == "written")
    #expect(holder.writtenShout == "WRITTEN")
    holder.writtenWord += "!"
    #expect(InjectedValues[ShapeWrittenWordKey.self] == "written!")
  }
}
