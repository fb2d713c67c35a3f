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

  @Test("Assigning through a wrapper over a get-only accessor stops with a clear message")
  func readOnlyWrapperAssignmentStops() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      ReadOnlyHolder().shouted = "nope"
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("Injection: cannot assign through @Injected("))
    #expect(message.contains("get-only"))
  }
}
