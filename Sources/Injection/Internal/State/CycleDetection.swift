import CInjectionSupport

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Detects cycles among defaults and values built on first use without a lock or an allocation
/// on the read path: on one thread in every build, across threads in debug builds.
///
/// A default that reads another dependency resolves it while it is being created. If the chain
/// comes back to a key already being created, the program would hang (a `static let` waits on its
/// own initialization) or overflow the stack (a computed default). Instead it stops with the
/// chain of keys.
///
/// - On this thread, before a key starts being created, the `reading` frames (see
///   `ContextFrame`), which already list the keys being created, are walked: the new key must
///   not be among them. Only a cycle found allocates, for its message.
/// - Across threads, each thread also writes the keys it is creating into a record of its own
///   (see `injection_chain_push`), with atomic stores and no lock. A watchdog thread, started by
///   the first record, reads every record twice a second and stops the program when:
///   - threads wait for each other in a ring: each one's innermost key is being created further
///     out on the next, in two scans in a row with no record changed. Thread 1 creates `A`,
///     whose default reads `B`, while thread 2 creates `B`, whose default reads `A`: each
///     `static let` waits for the other's initialization forever.
///   - a key's default has been under construction on one thread for `patienceSeconds` while
///     it is another thread's innermost key, both records unchanged: the default waits for work
///     on that thread, which waits for the default. That is a cycle through another thread, or a
///     default slower than `patienceSeconds`; neither is left to hang silently.
///
/// Release builds make no record and start no watchdog (`checking` only runs its body there).
/// They keep the check of this thread's frames before a default is created
/// (`checkThisThread`), so a cycle among defaults on one thread stops with its chain in every
/// build; and a value built on first use stops, rather than waiting for itself, if its own
/// factory reads it on the same thread (see `LazyCell`).
@usableFromInline
enum CycleDetection {
  /// How long a default may stay under construction while another thread waits for it, and a
  /// value built on first use while another reader waits for it (`LazyCell`).
  static let patienceSeconds = 5

  /// How often the watchdog reads the records.
  private static let scanMicroseconds: UInt32 = 500_000

  /// Runs `body`, which creates or waits for the value of `key` (its default, or with `cell`,
  /// the value built on first use in that cell), after checking in debug builds that this does
  /// not close a cycle.
  @usableFromInline
  static func checking<Result>(
    _ key: any InjectionKey.Type,
    cell: UInt = 0,
    _ body: () -> Result
  ) -> Result {
    #if DEBUG
      enter(key, cell: cell)
      defer { leave() }
    #endif
    return body()
  }

  /// Checks that this thread creating `key` (its default, or with `cell`, the value of that
  /// cell) closes no cycle, and records it for the watchdog.
  static func enter(_ key: any InjectionKey.Type, cell: UInt) {
    checkThisThread(key, cell: cell, from: ContextFrame.top)
    let identity = UInt(bitPattern: ObjectIdentifier(key))
    if injection_chain_push(identity, cell) == 1 { _ = watchdog }
  }

  /// Stops the program, with the chain of keys, if this thread is already creating `key` (its
  /// default, or with `cell`, the value of that cell): the frames from `top` down say which keys
  /// it is creating. Release builds check this too, where a default is created under a frame
  /// (`top` is not `nil`): a walk of this thread's frames, with no lock and no shared state. Only
  /// the watchdog, for cycles through other threads, is left to debug builds.
  @usableFromInline
  static func checkThisThread(
    _ key: any InjectionKey.Type,
    cell: UInt,
    from top: UnsafeMutablePointer<ContextFrame>?
  ) {
    let identity = UInt(bitPattern: ObjectIdentifier(key))
    var frame = top
    while let current = frame {
      if current.pointee.kind == .reading, let creating = current.pointee.creating,
        UInt(bitPattern: ObjectIdentifier(creating)) == identity, current.pointee.owner == cell
      {
        stopForCycleOnThisThread(key, cell: cell)
      }
      frame = current.pointee.below
    }
  }

  /// Records that this thread has finished creating its innermost key.
  static func leave() {
    injection_chain_pop()
  }

  /// Stops the program with the chain of keys that this thread is creating, from `key` (its
  /// default, or with `cell`, the value of that cell) to the read of `key` again.
  static func stopForCycleOnThisThread(_ key: any InjectionKey.Type, cell: UInt) -> Never {
    let inner = ContextFrame.keysBeingCreated(from: ContextFrame.top)
    let end =
      inner.firstIndex {
        ObjectIdentifier($0.key) == ObjectIdentifier(key) && $0.cell == cell
      } ?? inner.count - 1
    let names = ([key] + inner[...end].map(\.key)).reversed().map { String(describing: $0) }
    stop(names)
  }

  private static func stop(_ names: [String]) -> Never {
    fatalError("Injection: dependency cycle detected: \(names.joined(separator: " → "))")
  }

  // MARK: - The watchdog

  /// Starts the watchdog, once.
  private static let watchdog: Void = {
    _ = injection_start_thread { CycleDetection.watch() }
  }()

  /// A key being created on a thread: its metadata's address, and its cell (0 for a default).
  private struct Entry: Equatable {
    let key: UInt
    let cell: UInt
    var name: String {
      String(describing: unsafeBitCast(UnsafeRawPointer(bitPattern: key), to: Any.Type.self))
    }
  }

  /// One record, as one scan read it.
  private struct Chain {
    let record: OpaquePointer
    let sequence: UInt
    /// Outermost first; never empty.
    let entries: [Entry]
  }

  /// What a scan found worth stopping for, if it lasts.
  private struct Finding: Equatable {
    /// The records involved, with the sequence numbers they had.
    let records: [UInt]
    let message: String
  }

  /// Reads the records every `scanMicroseconds`, forever.
  private static func watch() {
    var lastRing: Ring?
    var waiting: Finding?
    var waitingScans = 0
    let patienceScans = patienceSeconds * 1_000_000 / Int(scanMicroseconds)
    while true {
      usleep(scanMicroseconds)
      let chains = readChains()
      let ring = findRing(in: chains)
      if let ring, ring == lastRing { stop(ring.names) }
      lastRing = ring
      let found = findWait(in: chains)
      if let found, found == waiting {
        waitingScans += 1
        if waitingScans >= patienceScans { fatalError(found.message) }
      } else {
        waiting = found
        waitingScans = 0
      }
    }
  }

  /// Every record that a thread owns and that holds a consistent, complete chain.
  private static func readChains() -> [Chain] {
    var chains: [Chain] = []
    var keys = [UInt](repeating: 0, count: Int(INJECTION_CHAIN_CAPACITY))
    var cells = keys
    var record = injection_chain_first()
    while let current = record {
      var sequence: UInt = 0
      let depth = injection_chain_read(current, &keys, &cells, &sequence)
      if depth > 0, depth <= INJECTION_CHAIN_CAPACITY {
        let entries = (0..<depth).map { Entry(key: keys[$0], cell: cells[$0]) }
        chains.append(Chain(record: current, sequence: sequence, entries: entries))
      }
      record = injection_chain_next(current)
    }
    return chains
  }

  /// A ring of threads each waiting for the next: its records and its chain of key names.
  private struct Ring: Equatable {
    let records: [UInt]
    let names: [String]
  }

  /// Finds threads in a ring, each one's innermost key being created further out on the next.
  private static func findRing(in chains: [Chain]) -> Ring? {
    // next[i]: the thread that creates thread i's innermost key, and where in its chain.
    let next = chains.indices.map { index -> (chain: Int, position: Int)? in
      let waitedFor = chains[index].entries.last!
      for other in chains.indices where other != index {
        if let position = chains[other].entries.dropLast().firstIndex(of: waitedFor) {
          return (other, position)
        }
      }
      return nil
    }
    for start in chains.indices {
      // Walk at most `chains.count` steps; a ring through `start` comes back to it.
      var path = [start]
      var current = start
      while let step = next[current], path.count <= chains.count {
        if step.chain == start { return ring(path, next: next, in: chains) }
        if path.contains(step.chain) { break }
        path.append(step.chain)
        current = step.chain
      }
    }
    return nil
  }

  /// The chain of keys around a ring of threads: on each, from the key the previous one waits
  /// for to its own innermost key.
  private static func ring(
    _ path: [Int],
    next: [(chain: Int, position: Int)?],
    in chains: [Chain]
  ) -> Ring {
    var names: [String] = []
    for (offset, index) in path.enumerated() {
      let previous = path[(offset + path.count - 1) % path.count]
      let from = next[previous]!.position
      let entries = chains[index].entries[from...]
      names += (names.isEmpty ? entries : entries.dropFirst()).map(\.name)
    }
    // The last thread's innermost key is the one the first thread's part starts with: the chain
    // already ends where it began.
    let records = path.flatMap { [UInt(bitPattern: chains[$0].record), chains[$0].sequence] }
    return Ring(records: records, names: names)
  }

  /// Finds a thread whose innermost key is a default being created on another thread.
  private static func findWait(in chains: [Chain]) -> Finding? {
    for index in chains.indices {
      let waitedFor = chains[index].entries.last!
      guard waitedFor.cell == 0 else { continue }  // `LazyCell` watches its own readers
      for other in chains.indices where other != index {
        guard chains[other].entries.contains(waitedFor) else { continue }
        let name = waitedFor.name
        let message =
          "Injection: the default of \(name) has been under construction for \(patienceSeconds) "
          + "seconds while another thread waits to read \(name): a dependency cycle may go "
          + "through another thread (the default waits for work that reads its own key). "
          + "A default must not wait for another thread or task that reads its own key."
        let records = [index, other].flatMap {
          [UInt(bitPattern: chains[$0].record), chains[$0].sequence]
        }
        return Finding(records: records, message: message)
      }
    }
    return nil
  }
}
