// A walk-through of Injection, one labelled step at a time: `swift run InjectionDemo`.
import Injection

// MARK: - The dependency

/// Something that fetches data: the live provider in the app, mocks in tests.
protocol NetworkProvider: Sendable {
  func requestData() -> String
}

struct LiveNetworkProvider: NetworkProvider {
  func requestData() -> String { "Data requested using the live NetworkProvider" }
}

struct MockNetworkProvider: NetworkProvider {
  let name: String
  func requestData() -> String { "Data requested using \(name)" }
}

private struct NetworkProviderKey: InjectionKey {
  static let currentValue: any NetworkProvider = LiveNetworkProvider()
}

extension InjectedValues {
  var networkProvider: any NetworkProvider {
    get { self[NetworkProviderKey.self] }
    set { self[NetworkProviderKey.self] = newValue }
  }
}

/// A type that uses the dependency, as app code does.
struct DataController {
  @Injected(\.networkProvider) var networkProvider

  func performDataRequest() -> String { networkProvider.requestData() }
}

func step(_ number: Int, _ title: String) {
  print("\n\(number). \(title)")
}

let controller = DataController()

// MARK: - 1. The seed's story

step(1, "The seed's story: the default, then a global override")
print("   default:           \(controller.performDataRequest())")
InjectedValues[\.networkProvider] = MockNetworkProvider(name: "a global mock")
print("   global override:   \(controller.performDataRequest())")
controller.networkProvider = MockNetworkProvider(name: "another global mock")  // global too
print("   through @Injected: \(controller.performDataRequest())")
InjectedValues.resetGlobal(\.networkProvider)  // removes the global value
print("   set back:          \(controller.performDataRequest())")

// MARK: - 2. A scoped mock

step(2, "A scoped mock: only the code inside the scope sees it")
withInjectedValues {
  $0.networkProvider = MockNetworkProvider(name: "a scoped mock")
} operation: {
  print("   inside the scope: \(controller.performDataRequest())")
}
print("   after the scope:  \(controller.performDataRequest())")

// MARK: - 3. Concurrent scopes

step(3, "1,000 concurrent tasks, each with its own mock")
let crossTalk = await withTaskGroup(of: Int.self) { group in
  for index in 0..<1_000 {
    group.addTask {
      let expected = "Data requested using mock #\(index)"
      return await withInjectedValues {
        $0.networkProvider = MockNetworkProvider(name: "mock #\(index)")
      } operation: {
        await Task.yield()  // let the other tasks interleave
        return DataController().performDataRequest() == expected ? 0 : 1
      }
    }
  }
  var total = 0
  for await result in group { total += result }
  return total
}
print("   tasks whose controller saw another task's mock: \(crossTalk)")

// MARK: - 4. Detached work

step(4, "A detached task does not inherit the scope; it re-enters a snapshot")
await withInjectedValues {
  $0.networkProvider = MockNetworkProvider(name: "the request's mock")
} operation: {
  let snapshot = InjectedValues.current
  await Task.detached {
    print("   detached, plain:       \(DataController().performDataRequest())")
    withInjectedValues(snapshot) {
      print("   detached, re-entered:  \(DataController().performDataRequest())")
    }
  }.value
}
print("\nDone. Read Docs/ for the rules behind each step.")
