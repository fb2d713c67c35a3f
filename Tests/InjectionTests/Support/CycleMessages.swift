/// The chain of keys that a cycle message in `output` names: the rest of the line after
/// "Injection: dependency cycle detected: ", or `nil` if there is no such line.
///
/// Tests compare it whole, so that a key missing from the chain, or one too many, fails them.
func cycleChain(in output: String) -> String? {
  let prefix = "Injection: dependency cycle detected: "
  guard let start = output.range(of: prefix)?.upperBound else { return nil }
  return String(output[start...].prefix { $0 != "\n" })
}
