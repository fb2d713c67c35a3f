import Testing

@testable import Injection

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

private struct GlobalOrderKey: InjectionKey {
  static let currentValue = "default"
}

private struct SeedGlobalKey: InjectionKey {
  static let currentValue = "default"
}

private struct KeyPathGlobalKey: InjectionKey {
  static let currentValue = 1
}

private struct StoreKey: InjectionKey {
  static let currentValue = CounterBox()
}

/// A value-type dependency with members, for writes through nested key paths.
struct Config: Sendable, Equatable {
  var name: String
  var timeout: Int
}

private struct NestedWriteConfigKey: InjectionKey {
  static let currentValue = Config(name: "live", timeout: 30)
}

private struct MemberWriteConfigKey: InjectionKey {
  static let currentValue = Config(name: "live", timeout: 30)
}

private struct ResetKey: InjectionKey {
  static let currentValue = "default"
}

/// Two keys behind one get-only accessor, to reset through a view.
private struct ResetFirstKey: InjectionKey {
  static let currentValue = "first default"
}

private struct ResetSecondKey: InjectionKey {
  static let currentValue = "second default"
}

private struct ResetAllKey: InjectionKey {
  static let currentValue = "default"
}

private final class CounterBox: @unchecked Sendable {
  // Safe: `count` is only touched under `lock`.
  private let lock = Lock()
  private var stored = 0
  var count: Int {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
}

extension InjectedValues {
  /// A read-only view of two keys.
  fileprivate var resetPair: String {
    self[ResetFirstKey.self] + " & " + self[ResetSecondKey.self]
  }

  fileprivate var globalOrder: String {
    get { self[GlobalOrderKey.self] }
    set { self[GlobalOrderKey.self] = newValue }
  }

  fileprivate var seedGlobal: String {
    get { Self[SeedGlobalKey.self] }
    set { Self[SeedGlobalKey.self] = newValue }
  }

  fileprivate var keyPathGlobal: Int {
    get { self[KeyPathGlobalKey.self] }
    set { self[KeyPathGlobalKey.self] = newValue }
  }

  fileprivate var nestedWriteConfig: Config {
    get { self[NestedWriteConfigKey.self] }
    set { self[NestedWriteConfigKey.self] = newValue }
  }

  fileprivate var seedNestedWriteConfig: Config {
    get { Self[NestedWriteConfigKey.self] }
    set { Self[NestedWriteConfigKey.self] = newValue }
  }

  fileprivate var memberWriteConfig: Config {
    get { self[MemberWriteConfigKey.self] }
    set { self[MemberWriteConfigKey.self] = newValue }
  }

  fileprivate var reset: String {
    get { self[ResetKey.self] }
    set { self[ResetKey.self] = newValue }
  }

  fileprivate var seedResetAll: String {
    get { Self[ResetAllKey.self] }
    set { Self[ResetAllKey.self] = newValue }
  }

  fileprivate var store: CounterBox {
    get { self[StoreKey.self] }
    set { self[StoreKey.self] = newValue }
  }
}

@Suite("InjectedValues")
struct InjectedValuesTests {
  // MARK: - Rule 1: resolution order

  @Test("A read with no override and no global value sees the key's default")
  func readsDefault() {
    #expect(InjectedValues[\.name] == "default")
    #expect(InjectedValues[NameKey.self] == "default")
    #expect(InjectedValues.current[NameKey.self] == "default")
    #expect(InjectedValues[\.greeting].greet("Ada") == "Hello, Ada")
  }

  @Test("Resolution order is innermost scope, then global, then default")
  func resolutionOrder() {
    defer { removeGlobal(GlobalOrderKey.self) }
    #expect(InjectedValues[\.globalOrder] == "default")

    InjectedValues[\.globalOrder] = "global"
    #expect(InjectedValues[\.globalOrder] == "global")

    withInjectedValues {
      $0.globalOrder = "outer"
    } operation: {
      #expect(InjectedValues[\.globalOrder] == "outer")
      withInjectedValues {
        $0.globalOrder = "inner"
      } operation: {
        #expect(InjectedValues[\.globalOrder] == "inner")
      }
      #expect(InjectedValues[\.globalOrder] == "outer")
    }
    #expect(InjectedValues[\.globalOrder] == "global")
  }

  @Test("Self[Key.self] = v outside an update closure sets the global fallback")
  func seedStyleSetOutsideScopeIsGlobal() async {
    defer { removeGlobal(SeedGlobalKey.self) }
    InjectedValues[SeedGlobalKey.self] = "global via Self"
    #expect(InjectedValues[\.seedGlobal] == "global via Self")
    let seenElsewhere = await Task.detached { InjectedValues[\.seedGlobal] }.value
    #expect(seenElsewhere == "global via Self")
  }

  @Test("InjectedValues[\\.x] = v sets the global even inside a scope that overrides x")
  func keyPathSetIsGlobalInsideScope() async {
    defer { removeGlobal(KeyPathGlobalKey.self) }
    await withInjectedValues {
      $0.keyPathGlobal = 10
    } operation: {
      InjectedValues[\.keyPathGlobal] = 20
      #expect(InjectedValues[\.keyPathGlobal] == 10, "the scope's override still wins here")
    }
    #expect(InjectedValues[\.keyPathGlobal] == 20)
  }

  // MARK: - Global writes start from the global value

  @Test(
    "InjectedValues[\\.a.b] = v inside a scope starts from the global value, never the scope's override",
    .serialized,  // both cases set and remove the global value of one key
    arguments: AccessorStyle.allCases
  )
  func nestedGlobalWriteStartsFromGlobalValue(style: AccessorStyle) {
    defer { removeGlobal(NestedWriteConfigKey.self) }
    let config: WritableKeyPath<InjectedValues, Config> =
      style == .instance ? \.nestedWriteConfig : \.seedNestedWriteConfig
    withInjectedValues {
      $0[keyPath: config] = Config(name: "test-mock", timeout: 1)
    } operation: {
      InjectedValues[config.appending(path: \.timeout)] = 99
      #expect(
        InjectedValues[config] == Config(name: "test-mock", timeout: 1),
        "the scope keeps its value"
      )
      InjectedValues[config].timeout += 1
      #expect(InjectedValues[config] == Config(name: "test-mock", timeout: 1))
    }
    #expect(InjectedValues[config] == Config(name: "live", timeout: 100))
    #expect(InjectedValues.current.source(of: config) == .global)
  }

  // MARK: - Removing global values

  @Test("resetGlobal removes the global value behind an accessor; scopes are untouched")
  func resetGlobalRemovesOneKey() {
    defer { removeGlobal(ResetKey.self) }
    InjectedValues[\.reset] = "global"
    let scopeLine = #line + 1
    withInjectedValues {
      $0.reset = "scoped"
    } operation: {
      InjectedValues.resetGlobal(\.reset)
      #expect(InjectedValues[\.reset] == "scoped", "a scope's override is untouched")
      #expect(
        InjectedValues.current.source(of: \.reset) == .scope(fileID: #fileID, line: scopeLine)
      )
    }
    #expect(InjectedValues[\.reset] == "default")
    #expect(InjectedValues.current.source(of: \.reset) == .defaultValue)
    #expect(InjectedValues.current.source(of: ResetKey.self) == .defaultValue)
    InjectedValues.resetGlobal(\.reset)  // removing an absent value is harmless
    #expect(InjectedValues[\.reset] == "default")
  }

  @Test("resetGlobal through a read-only view removes the global values of every key it reads")
  func resetGlobalThroughAView() {
    defer {
      removeGlobal(ResetFirstKey.self)
      removeGlobal(ResetSecondKey.self)
    }
    InjectedValues[ResetFirstKey.self] = "first global"
    InjectedValues[ResetSecondKey.self] = "second global"
    #expect(InjectedValues[\.resetPair] == "first global & second global")
    InjectedValues.resetGlobal(\.resetPair)
    #expect(InjectedValues[\.resetPair] == "first default & second default")
    #expect(InjectedValues.current.source(of: ResetFirstKey.self) == .defaultValue)
    #expect(InjectedValues.current.source(of: ResetSecondKey.self) == .defaultValue)
  }

  #if os(macOS) || os(Linux)  // the platforms with exit tests (none on iOS, tvOS, watchOS)
    @Test("resetAllGlobals removes every global value, however it was set")
    func resetAllGlobalsRemovesEveryKey() async {
      // It removes the global values of every test, so it runs in a process of its own.
      await #expect(processExitsWith: .success) {
        InjectedValues[\.seedResetAll] = "global"
        InjectedValues[\.reset] = "global"
        InjectedValues[ResetAllKey.self] = "global through Self[Key.self]"
        guard InjectedValues.current.source(of: ResetAllKey.self) == .global else { exit(1) }
        InjectedValues.resetAllGlobals()
        guard InjectedValues[\.seedResetAll] == "default", InjectedValues[\.reset] == "default",
          InjectedValues.current.source(of: \.seedResetAll) == .defaultValue
        else { exit(2) }
        // A removed key can be set again.
        InjectedValues[\.seedResetAll] = "set again"
        guard InjectedValues[\.seedResetAll] == "set again" else { exit(3) }
      }
    }
  #endif

  // MARK: - Rule 6: seed-style accessors scope like instance ones

  @Test("A seed-style accessor set in an update closure overrides only that scope")
  func seedStyleAccessorIsScoped() {
    withInjectedValues {
      $0.seedCount = 7
    } operation: {
      #expect(InjectedValues[\.seedCount] == 7)
      #expect(InjectedValues[SeedCountKey.self] == 7)
      #expect(InjectedValues.current[SeedCountKey.self] == 7)
    }
    #expect(InjectedValues[\.seedCount] == 100)
  }

  @Test("Seed-style and instance-style accessors build the same values", arguments: [1, 5])
  func seedStyleMatchesInstanceStyle(increments: Int) {
    withInjectedValues {
      for _ in 0..<increments {
        $0.seedCount += 1
        $0.count += 1
      }
    } operation: {
      #expect(InjectedValues[\.seedCount] == 100 + increments)
      #expect(InjectedValues[\.count] == increments)
    }
  }

  @Test("Many concurrent scopes set through a seed-style accessor never touch the global")
  func seedStyleConcurrentScopes() async {
    let crossTalk = await withTaskGroup(of: Int.self) { group in
      for index in 0..<1_000 {
        group.addTask {
          withInjectedValues {
            $0.seedCount = index
          } operation: {
            InjectedValues[\.seedCount] == index ? 0 : 1
          }
        }
      }
      return await group.reduce(0, +)
    }
    #expect(crossTalk == 0)
    #expect(InjectedValues[\.seedCount] == 100)
    #expect(GlobalValues.box(for: InjectedValues._key(SeedCountKey.self)) == nil)
  }

  // MARK: - Shapes of values and accessors

  @Test("An override of nil is an override, distinct from a non-nil default")
  func nilOverride() {
    #expect(InjectedValues[\.token] == "default-token")
    withInjectedValues {
      $0.token = nil
    } operation: {
      #expect(InjectedValues[\.token] == nil)
    }
  }

  @Test("A get-only accessor is a read-only view of the values it reads")
  func readOnlyView() {
    #expect(InjectedValues[\.shoutedName] == "DEFAULT")
    withInjectedValues {
      $0.name = "ada"
    } operation: {
      #expect(InjectedValues[\.shoutedName] == "ADA")
    }
  }

  @Test("A member of a class dependency can be changed through the subscript")
  func mutateThroughSubscript() {
    let store = CounterBox()
    withInjectedValues {
      $0.store = store
    } operation: {
      InjectedValues[\.store].count = 3
    }
    #expect(store.count == 3)
    #expect(StoreKey.currentValue.count == 0, "the write reached the scoped instance only")
  }

  // MARK: - Snapshots

  @Test("current is a snapshot that keeps its overrides after the scope ends")
  func snapshotKeepsOverrides() {
    let snapshot = withInjectedValues {
      $0.name = "snap"
    } operation: {
      InjectedValues.current
    }
    #expect(snapshot[NameKey.self] == "snap")
    #expect(snapshot.name == "snap")
    #expect(InjectedValues[\.name] == "default")
  }

  @Test("A snapshot changed outside a scope changes only that copy")
  func snapshotCopiesAreValues() {
    let original = InjectedValues.current
    var copy = original
    copy.name = "copy"
    #expect(copy.name == "copy")
    #expect(original.name == "default")
    #expect(InjectedValues[\.name] == "default")
    withInjectedValues(copy) {
      #expect(InjectedValues[\.name] == "copy")
    }
  }

  @Test("Inside an update closure, every read sees the values being built")
  func currentInsideUpdateClosure() {
    withInjectedValues {
      $0.count = 1
    } operation: {
      withInjectedValues {
        #expect(InjectedValues[\.count] == 1, "keys not set yet show the enclosing scope")
        $0.count = 2
        #expect($0.count == 2)
        #expect(InjectedValues.current.count == 2)
        #expect(InjectedValues[\.count] == 2)
      } operation: {
        #expect(InjectedValues[\.count] == 2)
      }
    }
  }

  @Test("Many overrides and deep nesting resolve every key")
  func manyOverrides() {
    withInjectedValues {
      $0.count = 1
      $0.name = "a"
      $0.seedCount = 2
      $0.token = "t"
      $0.greeting = MockGreeting(word: "Hi")
    } operation: {
      withInjectedValues {
        $0.count = 3
      } operation: {
        withInjectedValues {
          $0.name = "b"
        } operation: {
          #expect(InjectedValues[\.count] == 3)
          #expect(InjectedValues[\.name] == "b")
          #expect(InjectedValues[\.seedCount] == 2)
          #expect(InjectedValues[\.token] == "t")
          #expect(InjectedValues[\.greeting].greet("Ada") == "Hi, Ada")
        }
      }
    }
  }
}
