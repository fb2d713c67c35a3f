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
/// - **Across threads**: a thread that waits for another thread's creation registers its wait
///   here, under one lock. If the waits form a ring (thread 1 waits for a key that thread 2
///   creates, while thread 2 waits for one that thread 1 creates), the last thread to wait stops
///   the program with the chain. Waits for a value built on first use are registered in every
///   build. Defaults are created by Swift itself (a `static let` waits inside the runtime), so
///   in debug builds the library makes threads that would create the same default at once take
///   turns, and registers those waits too; release builds leave defaults to Swift.
///
/// A wait that lasts `patienceSeconds` without a known cycle prints its message once, naming the
/// key and saying that a cycle may go through another thread (a factory that waits on a
/// semaphore for a task that reads its own value), and goes on waiting: a slow default or
/// factory is not a cycle.
@usableFromInline
enum CycleDetection {
  /// How long a wait lasts before its message is printed.
  static let patienceSeconds = 5

  /// One thread's wait for a key that another thread is creating.
  ///
  /// Lock order: `stillCreating` runs under the registry's lock and may take a lazy cell's lock
  /// (`LazyLifecycle.isBeingBuilt`); no code takes the registry's lock while holding a cell's.
  private struct Wait {
    let key: any InjectionKey.Type
    let creatingThread: UInt
    /// Whether that thread is still creating the key: a wait registered just before its
    /// creation ended is no edge of a ring.
    let stillCreating: () -> Bool
  }

  /// The waits in progress, and in debug builds the defaults being created, by thread.
  private final class Registry: @unchecked Sendable {
    // Safe: every field is read and written only under `lock`.
    let lock = Lock()
    var waits: [UInt: Wait] = [:]
    /// The defaults being created: which thread creates each, and how many times over on that
    /// thread (a computed default may be created again inside its own creation... of another
    /// key's default that reads it).
    var defaults: [ObjectIdentifier: (thread: UInt, depth: Int)] = [:]
  }

  private static let registry = Registry()

  // MARK: - On one thread

  /// Stops the program, with the chain of keys, if this thread is already creating `key` (its
  /// default, or with `cell`, the value of that cell).
  @usableFromInline
  static func checkThisThread(_ key: any InjectionKey.Type, cell: UInt) {
    let identity = ObjectIdentifier(key)
    var frame = ContextFrame.top
    while let current = frame {
      if current.pointee.kind == .reading, let creating = current.pointee.creating,
        ObjectIdentifier(creating) == identity, current.pointee.owner == cell
      {
        stopForCycleOnThisThread(key, cell: cell)
      }
      frame = current.pointee.below
    }
  }

  /// Stops the program with the chain of keys that this thread is creating, from `key` (its
  /// default, or with `cell`, the value of that cell) to the read of `key` again.
  static func stopForCycleOnThisThread(_ key: any InjectionKey.Type, cell: UInt) -> Never {
    let inner = ContextFrame.keysBeingCreated(from: ContextFrame.top)
    let end =
      inner.firstIndex {
        ObjectIdentifier($0.key) == ObjectIdentifier(key) && $0.cell == cell
      } ?? inner.count - 1
    stop(([key] + inner[...end].map(\.key)).reversed())
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
    stillCreating: @escaping () -> Bool,
    message: () -> String,
    _ wait: (Lock.Deadline?) -> Bool
  ) {
    let thread = currentThreadID()
    registry.lock.withLock {
      registry.waits[thread] = Wait(
        key: key,
        creatingThread: creatingThread,
        stillCreating: stillCreating
      )
      if let ring = ringOfWaits(from: thread) { stop(ring) }
    }
    defer { _ = registry.lock.withLock { registry.waits.removeValue(forKey: thread) } }
    if wait(Lock.Deadline(afterSeconds: patienceSeconds)) { return }
    report(message())
    _ = wait(nil)
  }

  /// The keys around a ring of waits through `thread`, if its wait closes one: the key each
  /// thread waits for, from the one `thread` creates back to it. Called under the lock.
  private static func ringOfWaits(from thread: UInt) -> [any InjectionKey.Type]? {
    var keys: [any InjectionKey.Type] = []
    var current = thread
    var visited: Set<UInt> = []
    while let wait = registry.waits[current], visited.insert(current).inserted {
      guard wait.stillCreating() else { return nil }
      keys.append(wait.key)
      if wait.creatingThread == thread { return [keys.last!] + keys }
      current = wait.creatingThread
    }
    return nil
  }

  /// Prints `message` on standard error.
  private static func report(_ message: String) {
    var line = message + "\n"
    line.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
  }

  // MARK: - Defaults, in debug builds

  /// Runs `create`, which creates the default of `key` on this thread, after waiting for any
  /// other thread that is creating it, as a registered wait.
  @usableFromInline
  static func creatingDefault<Result>(
    of key: any InjectionKey.Type,
    _ create: () -> Result
  ) -> Result {
    let thread = currentThreadID()
    let identity = ObjectIdentifier(key)
    while true {
      let other = registry.lock.withLock { () -> UInt? in
        if let creation = registry.defaults[identity], creation.thread != thread {
          return creation.thread
        }
        registry.defaults[identity, default: (thread, 0)].depth += 1
        return nil
      }
      guard let other else { break }
      waitForDefault(of: key, creatingThread: other)
    }
    defer {
      registry.lock.withLock {
        let depth = registry.defaults[identity]!.depth - 1
        registry.defaults[identity] = depth == 0 ? nil : (thread, depth)
        if depth == 0 { registry.lock.wakeAll() }
      }
    }
    return create()
  }

  /// Waits until `creatingThread` no longer creates the default of `key`.
  private static func waitForDefault(of key: any InjectionKey.Type, creatingThread: UInt) {
    let identity = ObjectIdentifier(key)
    let isCreating = { registry.defaults[identity]?.thread == creatingThread }
    waiting(
      for: key,
      creatingThread: creatingThread,
      stillCreating: isCreating,  // asked under the registry's lock
      message: {
        "Injection: the default of \(key) has been under construction for \(patienceSeconds) "
          + "seconds on another thread while this thread waits to read \(key): a dependency "
          + "cycle may go through another thread (the default waits for work that reads its "
          + "own key). Still waiting."
      }
    ) { deadline in
      registry.lock.withLock {
        while isCreating() {
          guard let deadline else {
            registry.lock.wait()
            continue
          }
          if !registry.lock.wait(until: deadline), isCreating() { return false }
        }
        return true
      }
    }
  }
}
