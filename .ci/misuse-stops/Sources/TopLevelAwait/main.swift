import Injection

// Top-level code with `await`, as in a command-line tool's main.swift. Swift picks the
// synchronous withInjectedValues for an operation that does not suspend, even after `await`, so
// with no argument a value with an asynchronous teardown stops the program, with a message that
// says how to write it; `async-operation` writes the operation as `{ () async in … }`, which
// runs the asynchronous form and tears the value down.

final class Connection: Sendable {
  let name: String
  init(name: String) { self.name = name }
  func close() async { print("closed \(name)") }
}

struct ConnectionKey: InjectionKey { static let currentValue = Connection(name: "live") }

extension InjectedValues {
  var connection: Connection {
    get { self[ConnectionKey.self] }
    set { self[ConnectionKey.self] = newValue }
  }
}

await Task.yield()  // top-level code with `await`

if CommandLine.arguments.dropFirst().first == "async-operation" {
  await withInjectedValues {
    $0.lazy(\.connection) {
      Connection(name: "scoped")
    } teardown: {
      await $0.close()
    }
  } operation: { () async in
    print("read \(InjectedValues[\.connection].name)")
  }
} else {
  // The warning "no 'async' operations occur within 'await' expression" is this case's point.
  await withInjectedValues {
    $0.lazy(\.connection) {
      Connection(name: "scoped")
    } teardown: {
      await $0.close()
    }
  } operation: {
    print("read \(InjectedValues[\.connection].name)")
  }
}
