import Dispatch
import Injection

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Each case is one misuse that the library stops with a message; `.ci/misuse-stops.sh` runs them
// one per process and checks the message on standard error.

final class Connection: Sendable {
  let name: String
  init(name: String) { self.name = name }
  func close() async {}
}

struct ConnectionKey: InjectionKey { static let currentValue = Connection(name: "live") }
struct PortKey: InjectionKey { static let currentValue = 8080 }

extension InjectedValues {
  var connection: Connection {
    get { self[ConnectionKey.self] }
    set { self[ConnectionKey.self] = newValue }
  }

  var port: Int {
    get { self[PortKey.self] }
    set { self[PortKey.self] = newValue }
  }

  /// Reads no key.
  var constant: Connection {
    get { Connection(name: "constant") }
    set {}
  }

  /// Reads a key of another type.
  var portName: String {
    get { String(self[PortKey.self]) }
    set { self[PortKey.self] = Int(newValue) ?? 0 }
  }

  /// Writes while it reads.
  var writingGetter: Int {
    get {
      Self[PortKey.self] = 1
      return self[PortKey.self]
    }
    set { self[PortKey.self] = newValue }
  }

  /// A read-only view.
  var connectionName: String { self[ConnectionKey.self].name }

  /// A setter that declares a value built once per scope.
  var lazyConnectionName: String {
    get { self[ConnectionKey.self].name }
    set {
      let name = newValue
      lazy(\.connection) { Connection(name: name) }
    }
  }
}

struct Reader {
  @Injected(\.connectionName) var connectionName
}

struct TitleKey: InjectionKey { static let currentValue = "Home" }

/// Two keys whose defaults read each other: a cycle on one thread.
struct PrimaryKey: InjectionKey {
  static let currentValue: Int = InjectedValues[SecondaryKey.self] + 1
}
struct SecondaryKey: InjectionKey {
  static let currentValue: Int = InjectedValues[PrimaryKey.self] + 1
}

extension InjectedValues {
  /// An accessor isolated to the main actor, as in a module whose default isolation it is.
  @MainActor var screenTitle: String {
    get { self[TitleKey.self] }
    set { self[TitleKey.self] = newValue }
  }
}

/// Reads, on a thread of the global queue, a wrapper over a main-actor accessor that was made on
/// the main actor, where top-level code runs.
func readMainActorWrapperOffTheMainThread() {
  let wrapper = MainActor.assumeIsolated { Injected(\.screenTitle) }
  let done = DispatchSemaphore(value: 0)
  DispatchQueue.global().async {
    _ = wrapper.wrappedValue
    done.signal()
  }
  done.wait()
}

/// Runs a synchronous scope that declares a value with an asynchronous teardown.
func synchronousScopeWithAsynchronousTeardown() {
  withInjectedValues {
    $0.lazy(\.connection) {
      Connection(name: "scoped")
    } teardown: {
      await $0.close()
    }
  } operation: {
    _ = InjectedValues[\.connection]
  }
}

let cases: [String: () -> Void] = [
  "lazy-reads-no-key": {
    withInjectedValues {
      $0.lazy(\.constant) { Connection(name: "x") }
    } operation: {
    }
  },
  "lazy-reads-other-type": {
    withInjectedValues {
      $0.lazy(\.portName) { "80" }
    } operation: {
    }
  },
  "sync-scope-async-teardown": synchronousScopeWithAsynchronousTeardown,
  "getter-writes-while-probed": {
    InjectedValues.resetGlobal(\.writingGetter)
  },
  "lazy-read-before-scope": {
    withInjectedValues {
      $0.lazy(\.connection) { Connection(name: "scoped") }
      _ = $0.connection
    } operation: {
    }
  },
  "lazy-read-after-scope": {
    let snapshot = withInjectedValues {
      $0.lazy(\.connection) { Connection(name: "scoped") }
    } operation: {
      InjectedValues.current
    }
    withInjectedValues(snapshot) { _ = InjectedValues[\.connection] }
  },
  "lazy-factory-reads-itself": {
    withInjectedValues {
      $0.lazy(\.connection) { InjectedValues[\.connection] }
    } operation: {
      _ = InjectedValues[\.connection]
    }
  },
  "lazy-factories-read-each-other": {
    withInjectedValues {
      $0.lazy(\.connection) { Connection(name: "port \(InjectedValues[PortKey.self])") }
      $0.lazy(\.port) { InjectedValues[\.connection].name.count }
    } operation: {
      _ = InjectedValues[\.connection]
    }
  },
  "defaults-read-each-other": {
    _ = InjectedValues[PrimaryKey.self]
  },
  "lazy-in-global-write": {
    InjectedValues[\.lazyConnectionName] = "global"
  },
  "injected-assigned-through-view": {
    Reader().connectionName = "other"
  },
  "injected-main-actor-accessor-off-main": readMainActorWrapperOffTheMainThread,
]

let arguments = CommandLine.arguments.dropFirst()
guard let name = arguments.first, let misuse = cases[name] else {
  print(cases.keys.sorted().joined(separator: "\n"))
  exit(arguments.isEmpty ? 0 : 2)
}
misuse()
print("no stop: \(name)")
exit(3)
