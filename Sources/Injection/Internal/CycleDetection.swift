/// Detects cycles among defaults and values built on first use, in debug builds.
///
/// A default that reads another dependency resolves it while it is being created. If the chain
/// comes back to a key already being created, the program would hang (a `static let` waits on its
/// own initialization) or overflow the stack (a computed default). Instead it stops with the
/// chain of keys.
///
/// Two checks run before a key starts being created:
///
/// - On this thread, the `reading` frames (see `ContextFrame`) list the keys being created; the
///   new key must not be among them.
/// - Across threads, two creations can wait for each other: thread 1 creates `A`, whose default
///   reads `B`, while thread 2 creates `B`, whose default reads `A`. Each `static let` then waits
///   for the other's initialization forever. So every thread's chain is also registered in a
///   process-wide table (debug builds only, under a lock that never covers user code), and a new
///   link `P → K` is refused if the links of all threads already lead from `K` back to `P`.
///
/// Release builds compile both checks out; a value built on first use still stops, rather than
/// waiting for itself, if its own factory reads it (see `LazyCell`).
enum CycleDetection {
  /// What is being created: a key's default (`cell` 0), or a value built on first use (`cell`
  /// is its cell's address), compared by identity. A key's default and a value of that key built
  /// in a scope are different things: a factory may read another key whose default reads the
  /// first key's default, and that is no cycle.
  private struct Key: Hashable, Sendable {
    let type: Any.Type
    let cell: UInt
    static func == (lhs: Key, rhs: Key) -> Bool {
      ObjectIdentifier(lhs.type) == ObjectIdentifier(rhs.type) && lhs.cell == rhs.cell
    }
    func hash(into hasher: inout Hasher) {
      hasher.combine(ObjectIdentifier(type))
      hasher.combine(cell)
    }
  }

  /// The keys being created, per thread, outermost first.
  private static let chains = Locked([UInt: [Key]]())

  /// Registers that this thread starts creating `key` (its default, or with `cell`, the value of
  /// that cell), after checking for a cycle; returns what `leave` needs.
  static func enter(_ key: any InjectionKey.Type, cell: UInt) -> UInt {
    let new = Key(type: key, cell: cell)
    let inner = ContextFrame.keysBeingCreated(from: ContextFrame.top).map {
      Key(type: $0.key, cell: $0.cell)
    }
    if let end = inner.firstIndex(of: new) {
      stop(Array(([new] + inner[...end]).reversed()))
    }
    let thread = currentThreadID()
    let cycle = chains.withLock { chains -> [Key]? in
      let own = chains[thread] ?? []
      if let creator = own.last, let path = path(from: new, to: creator, in: chains) {
        return [creator] + path
      }
      chains[thread] = own + [new]
      return nil
    }
    if let cycle { stop(cycle) }
    return thread
  }

  /// Registers that this thread has finished creating its innermost key.
  static func leave(_ thread: UInt) {
    chains.withLock { chains in
      chains[thread]?.removeLast()
      if chains[thread]?.isEmpty == true { chains[thread] = nil }
    }
  }

  /// The shortest path `from … to` along the links of every registered chain, if there is one.
  private static func path(from start: Key, to end: Key, in chains: [UInt: [Key]]) -> [Key]? {
    var links: [Key: [Key]] = [:]
    for chain in chains.values {
      for (outer, inner) in zip(chain, chain.dropFirst()) {
        links[outer, default: []].append(inner)
      }
    }
    var visited: Set<Key> = [start]
    var paths = [[start]]
    while !paths.isEmpty {
      let path = paths.removeFirst()
      if path.last == end { return path }
      for next in links[path.last!] ?? [] where visited.insert(next).inserted {
        paths.append(path + [next])
      }
    }
    return nil
  }

  private static func stop(_ cycle: [Key]) -> Never {
    let names = cycle.map { String(describing: $0.type) }
    fatalError("Injection: dependency cycle detected: \(names.joined(separator: " → "))")
  }
}
