/// How a value built on first use is torn down when its scope ends.
@usableFromInline
enum LazyTeardown<Value: Sendable>: Sendable {
  case none
  case sync(@Sendable (Value) -> Void)
  case async(@Sendable (Value) async -> Void)
}

/// The states of a value built on first use, and who moves it between them. This is the one
/// place they are written; every move is made under the cell's lock.
///
/// | state | what it means | next, and who moves it |
/// | --- | --- | --- |
/// | `declared` | `lazy` declared it; no scope owns it | `open`, by the scope that starts it |
/// | `open` | its scope runs; nothing built yet | `building`, by the first reader; `closed`, by its scope |
/// | `building` | one thread runs the factory, without the lock; other readers wait | `built`, by that thread |
/// | `built` | reads copy the value, under the lock | `closed`, by its scope |
/// | `closed` | its scope has ended; a read stops the program | none |
///
/// A scope ends its cells in two steps (`LazyScope.end()`): first the teardowns, latest-built
/// first, while every cell stays readable (a teardown that reads a value not built yet builds it,
/// and a build in flight on another thread is waited for before the next teardown); then every
/// cell closes, in the order the scope opened them. A teardown runs once: claiming it sets
/// `tornDown`. Two exceptions to "a read of a closed cell stops": a reader that was already
/// waiting for the build when the scope closed gets the value, and a build that another thread
/// finishes after the teardowns is torn down when its cell closes.
@usableFromInline
enum LazyState: Equatable, Sendable {
  case declared
  case open
  case building(thread: UInt)
  case built
  case closed
}

/// A value built on first use, whatever its type: what its box holds and what the scope that
/// opened it does with it.
@usableFromInline
protocol LazyScopeMember: AnyObject, Sendable {
  var key: any InjectionKey.Type { get }
  var hasAsynchronousTeardown: Bool { get }
  /// The value as descriptions show it.
  var description: String { get }
  /// The declaration, as messages name it: `lazy(Key) at File.swift:12`.
  var declaration: String { get }
  /// Starts the scope that took the declaration: reads build the value, seeing `chain`. `false`
  /// if another scope took it first.
  func open(seeing chain: Node?, in scope: LazyScope) -> Bool
  /// For a declaration this scope took, before any read: reads see `chain` instead.
  func reopen(seeing chain: Node?)
  /// Waits if another thread is building the value, and says whether it waited.
  func waitForBuildInFlight() -> Bool
  /// Runs a synchronous teardown, unless it has run, and returns an asynchronous one for the
  /// caller to await; the value must be built.
  func tearDown() -> (@Sendable () async -> Void)?
  /// Ends the scope: later reads stop the program. Waits for a build in flight first, and
  /// returns whether a built value still needs its teardown.
  func close() -> Bool
  /// The same declaration, in a cell of its own, declared at `site`.
  func redeclared(at site: OverrideSite) -> any LazyScopeMember
}

/// A value built on first use, once per scope, and torn down when the scope ends: what
/// `InjectedValues.lazy(_:_:teardown:)` declares. Its states are `LazyState`'s.
@usableFromInline
final class LazyCell<Value: Sendable>: LazyScopeMember, @unchecked Sendable {
  // Safe: `state`, `built`, `scope` and `tornDown` are read and written only under `lock`; the
  // rest is immutable.
  @usableFromInline let key: any InjectionKey.Type
  let site: OverrideSite
  let make: @Sendable () -> Value
  let teardown: LazyTeardown<Value>

  @usableFromInline var state = LazyState.declared
  /// From `open` to `close`: the chain the factory sees, and the scope that ends the cell.
  private var scope: (chain: Node?, owner: LazyScope)?
  private var tornDown = false
  /// The value, once built: in an object of its own, so that a cell whose value was never built
  /// frees nothing whose type depends on `Value`.
  @usableFromInline var built: Built?

  /// A built value.
  @usableFromInline
  final class Built: Sendable {
    @usableFromInline let value: Value
    init(_ value: Value) { self.value = value }
  }
  @usableFromInline var lock: Lock { Lock.striped(for: self) }

  @usableFromInline
  init(
    key: any InjectionKey.Type,
    site: OverrideSite,
    make: @escaping @Sendable () -> Value,
    teardown: LazyTeardown<Value>
  ) {
    self.key = key
    self.site = site
    self.make = make
    self.teardown = teardown
  }

  @usableFromInline var hasAsynchronousTeardown: Bool {
    if case .async = teardown { true } else { false }
  }

  @usableFromInline var declaration: String {
    site.kind == .scope ? "lazy(\(key)) at \(site.fileID):\(site.line)" : "lazy(\(key))"
  }

  // MARK: - Reading

  /// The value: built on the first read, by that reader, while later readers wait for it. Every
  /// decision is made under the lock; the factory runs without it.
  @inlinable
  func read() -> Value {
    let lock = self.lock
    lock.lock()
    if state == .built, let value = built?.value {
      lock.unlock()
      return value
    }
    lock.unlock()
    return readUnbuilt()
  }

  /// `read()` of a value that was not built when it looked.
  @usableFromInline
  func readUnbuilt() -> Value {
    let thread = currentThreadID()
    let identity = UInt(bitPattern: ObjectIdentifier(self))
    CycleDetection.checkThisThread(key, cell: identity)
    var waited = false
    while true {
      // What the read found, and, if the value is not built, whether this read builds it.
      let (found, value, chain) = lock.withLock { () -> (LazyState, Value?, Node?) in
        let found = state
        if found == .open {
          state = .building(thread: thread)
          scope?.owner.buildStarted()
        }
        return (found, self.built?.value, scope?.chain)
      }
      switch found {
      case .built: return value!
      // A read that waited for a build as the scope ended gets the value it waited for.
      case .closed where waited && value != nil: return value!
      case .open:
        let made = ContextFrame.reading(chain, creating: key, cell: identity) { make() }
        lock.withLock {
          self.built = Built(made)
          state = .built
          scope?.owner.buildEnded(self)
          lock.wakeAll()
        }
        return made
      case .building(let builder):
        if builder == thread { CycleDetection.checkThisThread(key, cell: identity, certain: true) }
        waitForBuild(by: builder, waiter: "this read")
        waited = true
      case .declared, .closed: misuse(found)
      }
    }
  }

  /// Waits until `builder` has finished building the value, as a wait that cycle detection
  /// knows of. `waiter` says who waits, for the message printed after 5 seconds.
  private func waitForBuild(by builder: UInt, waiter: String) {
    CycleDetection.waiting(
      for: key,
      creatingThread: builder,
      stillCreating: { self.lock.withLock { self.state == .building(thread: builder) } },
      message: {
        "Injection: \(self.declaration) has been building on another thread for "
          + "\(CycleDetection.patienceSeconds) seconds while \(waiter) waits for it. Its factory "
          + "is slow, or it waits for work on another thread that reads this value, which never "
          + "ends. Still waiting."
      }
    ) { deadline in
      lock.withLock {
        while case .building = state {
          if !lock.wait(until: deadline), case .building = state { return false }
        }
        return true
      }
    }
  }

  /// Stops the program for a read that cannot be served: before the scope started, or after it
  /// ended.
  private func misuse(_ state: LazyState) -> Never {
    let place = site.kind == .scope ? " at \(site.fileID):\(site.line)" : ""
    let message =
      state == .closed
      ? "\(key), declared with lazy(_:_:)\(place), was read after its scope ended (for example "
        + "through a snapshot or a task that outlived the scope). Read it only while the scope "
        + "runs, or from its own teardowns."
      : "\(key), declared with lazy(_:_:)\(place), was read before its scope started: in the "
        + "update closure that declares it, or on a value outside any update closure, which no "
        + "scope owns. Declare it in the update closure of withInjectedValues or of a test trait, "
        + "and read it in the operation."
    fatalError("Injection: \(message)")
  }

  // MARK: - The scope's side

  @usableFromInline func open(seeing chain: Node?, in scope: LazyScope) -> Bool {
    lock.withLock {
      guard state == .declared else { return false }
      state = .open
      self.scope = (chain, scope)
      return true
    }
  }

  @usableFromInline func reopen(seeing chain: Node?) {
    let replaced = lock.withLock { () -> Node? in
      defer { scope?.chain = chain }
      return scope?.chain
    }
    withExtendedLifetime(replaced) {}  // released outside the lock: it may run a deinitializer
  }

  @usableFromInline func waitForBuildInFlight() -> Bool {
    guard case .building(let builder) = lock.withLock({ state }) else { return false }
    waitForBuild(by: builder, waiter: "the end of its scope")
    return true
  }

  /// The built value, if its teardown is still to run; claims it.
  private func claimTeardown() -> Value? {
    lock.withLock {
      guard !tornDown, let value = built?.value else { return nil }
      tornDown = true
      return value
    }
  }

  @usableFromInline func tearDown() -> (@Sendable () async -> Void)? {
    guard let value = claimTeardown() else { return nil }
    switch teardown {
    case .none: return nil
    case .sync(let teardown): teardown(value)
    case .async(let teardown): return { await teardown(value) }
    }
    return nil
  }

  @usableFromInline func close() -> Bool {
    while true {
      let (builder, needsTeardown, scope) = lock.withLock {
        () -> (UInt?, Bool, (chain: Node?, owner: LazyScope)?) in
        if case .building(let thread) = state { return (thread, false, nil) }
        let needsTeardown = state == .built && !tornDown
        state = .closed
        defer { self.scope = nil }
        return (nil, needsTeardown, self.scope)
      }
      withExtendedLifetime(scope) {}  // released outside the lock: it may run a deinitializer
      guard let builder else { return needsTeardown }
      waitForBuild(by: builder, waiter: "the end of its scope")
    }
  }

  @usableFromInline func redeclared(at site: OverrideSite) -> any LazyScopeMember {
    LazyCell(key: key, site: site, make: make, teardown: teardown)
  }

  @usableFromInline var description: String {
    switch lock.withLock({ (state, built?.value) }) {
    case (.built, let value?): "\(value)"
    case (.building, _): "(lazy, being built)"
    case (.closed, _): "(lazy, its scope has ended)"
    default: "(lazy, not built yet)"
    }
  }
}

/// One override of a key by a value built on first use: a node of the chain whose value its
/// cell holds, a `LazyCell` of the key's value type.
@usableFromInline
final class LazyBox: Node, @unchecked Sendable {
  // Safe: as `Node`; adds only `let` properties of `Sendable` types.
  @usableFromInline let cell: any LazyScopeMember
  let site: OverrideSite

  @usableFromInline
  init(_ cell: any LazyScopeMember, next: Node?, site: OverrideSite) {
    self.cell = cell
    self.site = site
    super.init(
      key: UInt(bitPattern: ObjectIdentifier(cell.key)),
      kind: .box,
      next: next,
      layer: site.layer,
      depth: site.depth
    )
  }

  override func relinked(to next: Node?, site: OverrideSite? = nil) -> Node {
    LazyBox(cell, next: next, site: site ?? self.site)
  }

  override var overrideKey: (any InjectionKey.Type)? { cell.key }

  override var overrideDescription: (value: String, site: OverrideSite)? {
    (cell.description, site)
  }
}

/// The values built on first use that one scope opened, and the order in which their builds
/// ended: what the scope ends when its operation returns.
@usableFromInline
final class LazyScope: @unchecked Sendable {
  // Safe: `cells` is written only by the scope before its operation runs, and read by it after;
  // `built` and `inFlight` are read and written only under `lock`.
  private(set) var cells: [any LazyScopeMember] = []
  /// The cells whose builds ended and that are not torn down yet, in the order their builds
  /// ended.
  private var built: [any LazyScopeMember] = []
  private var inFlight = 0
  /// Taken only alone, or inside a cell's lock (`buildStarted()`, `buildEnded(_:)`).
  private var lock: Lock { Lock.innerStriped(for: self) }

  init() {}

  /// Opens `cell` for this scope, seeing `chain`; `false` if another scope took it first.
  func open(_ cell: any LazyScopeMember, seeing chain: Node?) -> Bool {
    guard cell.open(seeing: chain, in: self) else { return false }
    cells.append(cell)
    return true
  }

  /// Called under the cell's lock: a build of one of this scope's cells starts or ends. The
  /// only place where two locks are held: the cell's, then this scope's.
  func buildStarted() { lock.withLock { inFlight += 1 } }
  func buildEnded(_ cell: any LazyScopeMember) {
    lock.withLock {
      inFlight -= 1
      built.append(cell)
    }
  }

  /// The cell whose teardown is due first, once no build is in flight: the latest built.
  private func nextTeardown() -> (any LazyScopeMember)? {
    while true {
      let (cell, buildsInFlight) = lock.withLock {
        inFlight > 0 ? (nil, true) : (built.popLast(), false)
      }
      guard buildsInFlight else { return cell }
      _ = cells.first { $0.waitForBuildInFlight() }
    }
  }

  /// Ends the cells, as `LazyState` describes: the teardowns, latest-built first, while every
  /// value stays readable; then every cell closes, in the order the scope opened them.
  @usableFromInline
  func end() {
    // A synchronous scope has no asynchronous teardowns: `openLazyValues` stops for them.
    while let cell = nextTeardown() { _ = cell.tearDown() }
    for cell in cells where cell.close() { _ = cell.tearDown() }
  }

  /// The asynchronous `end()`, which waits for asynchronous teardowns.
  @usableFromInline
  func end() async {
    while let cell = nextTeardown() { await cell.tearDown()?() }
    for cell in cells where cell.close() { await cell.tearDown()?() }
  }
}
