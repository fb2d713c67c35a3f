// The README's 30-second tour, unchanged, in an app module where every declaration is isolated to
// the main actor by default: the protocol and its requirements, the key (and its conformance to
// `InjectionKey`), the accessor, and `DataController`. That suits code running on the main actor,
// as top-level code does. Reports.swift shows a dependency that other threads read.
import Injection

// 1. A key names a dependency and gives its default.
protocol NetworkProvider: Sendable {
  func requestData() -> String
}

struct LiveNetworkProvider: NetworkProvider {
  func requestData() -> String { "live data" }
}

private struct NetworkProviderKey: InjectionKey {
  static let currentValue: any NetworkProvider = LiveNetworkProvider()
}

// 2. An accessor on InjectedValues reads and writes it.
extension InjectedValues {
  var networkProvider: any NetworkProvider {
    get { self[NetworkProviderKey.self] }
    set { self[NetworkProviderKey.self] = newValue }
  }
}

// 3. Code reads it with @Injected (or InjectedValues[\.networkProvider]).
struct DataController {
  @Injected(\.networkProvider) var networkProvider

  func load() -> String { networkProvider.requestData() }
}

struct MockNetworkProvider: NetworkProvider {
  func requestData() -> String { "mock data" }
}

// 4. A scope overrides it for the code it runs, and for the tasks that code starts.
withInjectedValues {
  $0.networkProvider = MockNetworkProvider()
} operation: {
  print(DataController().load())  // "mock data"
}

// 5. A global value is the fallback wherever no scope overrides the key.
InjectedValues[\.networkProvider] = MockNetworkProvider()
print(DataController().load())  // "mock data", in every task without a scope

// Beyond the tour: the other files' dependencies, as a screen would use them.
InjectedValues.resetGlobal(\.networkProvider)

let profile = ProfileViewModel()
profile.load()
print(profile.text)  // "live data"
print(InjectedValues[\.focusCoordinator].focusedStep ?? "none")  // "profile"

print(await profile.export())  // "- live data", rendered off the main actor
print(InjectedValues[\.toastCenter].messages)  // ["Report exported"]
print(ReportArchive().archive(["a", "b"]))
print(CartScreen().title())  // "Cart (0), dark"

let inbox = InboxModel()
try await inbox.refresh()
print(inbox.messages)  // ["live /inbox"]
