// The example server: `swift run InjectionServerExample [--port N]`, then in another terminal
// `curl -H 'X-Tenant: acme' http://127.0.0.1:8080/whoami`. Stop it with Ctrl-C.
import ServerExample

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes `message` to standard error and exits with `status`.
func fail(_ message: String, status: Int32) -> Never {
  let line = Array("InjectionServerExample: \(message)\n".utf8)
  _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
  exit(status)
}

var port: UInt16 = 8080
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  guard argument == "--port", let value = arguments.popFirst(), let number = UInt16(value) else {
    fail("usage: InjectionServerExample [--port N], with N from 0 to 65535", status: 2)
  }
  port = number
}

do {
  let server = try HTTPServer(port: port)
  print("Listening on http://127.0.0.1:\(server.port) (127.0.0.1 only). Stop with Ctrl-C.")
  print("Try: curl -H 'X-Tenant: acme' http://127.0.0.1:\(server.port)/whoami")
  fflush(nil)  // show the lines now, even when the output is a pipe
  try await server.run()
} catch {
  fail("\(error)", status: 1)
}
