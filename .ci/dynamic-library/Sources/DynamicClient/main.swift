import Injection

// Reads through `InjectedValues[\.x]` and `@Injected`, which are inlined here, outside any scope
// and inside one: each inlined read reaches the library's task-local and its symbols.

private struct GreetingKey: InjectionKey {
  static let currentValue = "Hello"
}

extension InjectedValues {
  var greeting: String {
    get { self[GreetingKey.self] }
    set { self[GreetingKey.self] = newValue }
  }
}

struct Greeter {
  @Injected(\.greeting) var greeting: String
}

print(InjectedValues[\.greeting], Greeter().greeting)
withInjectedValues {
  $0.greeting = "Hi"
} operation: {
  print(InjectedValues[\.greeting], Greeter().greeting)
}
