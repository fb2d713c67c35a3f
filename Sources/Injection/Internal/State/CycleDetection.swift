#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Cycles among defaults and values built on first use: a value whose creation needs itself
/// would hang (a `static let` waits on its own initialization) or overflow the stack. Instead the
/// program stops with the chain of keys, when the library knows there is a cycle:
///
/// - **On one thread** (every build): before a key is created, the thread's `reading` frames
///   (see `ContextFrame`) list the keys it is creating; the new key must not be among them.
/// - **Across threads, for values built on first use** (every build): a thread that waits for
///   another thread's build registers its wait here, under one lock. If the waits form a ring
///   (thread 1 waits for a value that thread 2 builds, while thread 2 waits for one that thread
///   1 builds), the last thread to wait stops the program with the chain.
///
/// Defaults are created by Swift itself (a `static let` waits inside the runtime), in every
/// build, so a cycle of defaults through other threads is not detected. A wait for another
/// thread's build that lasts `patienceSeconds` without a known cycle prints its message once and
/// goes on waiting: a slow factory is not a cycle.
@usableFromInline
enum CycleDetection {
  /// How long a wait lasts before its message is printed.
  static let patienceSeconds = 5

  /// One thread's wait for a key that another thread is creating.
  ///
  /// Lock order: `stillCreating` runs under the lock of `waits` and takes a lazy cell's lock; no
  /// code takes the lock of `waits` while holding a cell's.
  private struct Wait: @unchecked Sendable {
    // Safe: every property is a `let`; `key` is a metatype, which no thread can change.
    let key: any InjectionKey.Type
    let creatingThread: UInt
    /// Whether that thread is still creating the key: a wait registered just before its
    /// creation ended is no edge of a ring.
    let stillCreating: @Sendable () -> Bool
  }

  /// The waits in progress, by waiting thread.
  private static let waits = Locked<[UInt: Wait]>([:])

  // MARK: - On one thread

  /// Stops the program, with the chain of keys, if this thread is already creating `key` (its
  /// default, or with `cell`, the value of that cell). With `certain`, when the caller knows
  /// this thread builds it, stops in any case.
  @usableFromInline
  static func checkThisThread(_ key: any InjectionKey.Type, cell: UInt, certain: Bool = false) {
    var creating: [(key: any InjectionKey.Type, cell: UInt)] = []  // innermost first
    var frame = ContextFrame.top
    while let current = frame {
      if current.pointee.kind == .reading, let key = current.pointee.creating {
        creating.append((key, current.pointee.owner))
      }
      frame = current.pointee.below
    }
    let again = creating.firstIndex {
      ObjectIdentifier($0.key) == ObjectIdentifier(key) && $0.cell == cell
    }
    guard let end = again ?? (certain ? creating.count - 1 : nil) else { return }
    stop(([key] + creating.prefix(end + 1).map(\.key)).reversed())
  }

  private static func stop(_ keys: [any InjectionKey.Type]) -> Never {
    let names = keys.map { String(describing: $0) }
    fatalError("Injection: dependency cycle detected: \(names.joined(separator: " → "))")
  }

  // MARK: - Across threads

  /// Runs `wait`, which waits for `creatingThread` to finish creating `key`, as a registered
  /// wait: stops the program if it closes a ring of waits, and prints `message` if the wait
  /// lasts `patienceSeconds`. `wait` is given a deadline, and returns `false` if it passed
  /// first; then it is called again with none, to wait for as long as it takes.
  static func waiting(
    for key: any InjectionKey.Type,
    creatingThread: UInt,
    stillCreating: @escaping @Sendable () -> Bool,
    message: () -> String,
    _ wait: (Lock.Deadline?) -> Bool
  ) {
    let thread = currentThreadID()
    waits.withLock { waits in
      waits[thread] = Wait(key: key, creatingThread: creatingThread, stillCreating: stillCreating)
      if let ring = ringOfWaits(from: thread, in: waits) { stop(ring) }
    }
    defer { _ = waits.withLock { $0.removeValue(forKey: thread) } }
    if wait(Lock.Deadline(afterSeconds: patienceSeconds)) { return }
    report(message())
    _ = wait(nil)
  }

  /// The keys around a ring of waits through `thread`, if its wait closes one: the key each
  /// thread waits for, from the one `thread` creates back to it. Called under the lock.
  private static func ringOfWaits(
    from thread: UInt,
    in waits: [UInt: Wait]
  ) -> [any InjectionKey.Type]? {
    var keys: [any InjectionKey.Type] = []
    var current = thread
    var visited: Set<UInt> = []
    while let wait = waits[current], visited.insert(current).inserted {
      guard wait.stillCreating() else { return nil }
      keys.append(wait.key)
      if wait.creatingThread == thread { return [keys.last!] + keys }
      current = wait.creatingThread
    }
    return nil
  }

  /// Prints `message` on standard error.
  static func report(_ message: String) {
    var line = message + "\n"
    line.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
  }
}
