public import CInjectionSupport

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
/// | `built` | reads return the value without the lock | `closed`, by its scope |
/// | `closed` | its scope has ended; a read stops the program | none |
///
/// A scope ends its cells in two steps (`LazyValues.end()`): first the teardowns,
/// latest-built first, while every cell stays readable (a teardown that reads a value not built
/// yet builds it, and a build in flight on another thread is waited for); then every cell
/// closes. A teardown runs once: claiming it sets `tornDown`, under the lock; `close()` reports
/// a value built but not torn down, which its caller then tears down. Two exceptions to "a read
/// of a closed cell stops": a reader that was already waiting for the build when the scope
/// closed gets the value, and a build that another thread starts while the teardowns run is torn
/// down in its turn, after values torn down before it started.
@usableFromInline
enum LazyState: Equatable, Sendable {
  case declared
  case open
  case building(thread: UInt)
  case built
  case closed
}

/// The part of a value built on first use that does not depend on its type: its state, its
/// lock, every move of `LazyState`, and the steps its scope takes. `LazyCell`, its one subclass,
/// adds what does: the factory, the teardown and the value's type.
///
/// A class rather than a protocol, so that a scope keeps a list of its cells and calls their
/// steps directly, without an existential.
@usableFromInline
class LazyLifecycle: @unchecked Sendable {
  // Safe: `state`, `hasValue`, `scope`, `buildOrder` and `tornDown` are read and written only
  // under `lock` (and by the deinitializers, when nothing else refers to the cell). `nextOpened`
  // is written once, by the scope that opened the cell, before its operation runs, and read only
  // by that scope. The value at `storage` belongs to the thread that moved the cell to `building`
  // until it publishes it (`hasValue`, then `builtWord` with a release store); after that it is
  // read only by code that saw it built, under the lock or through an acquire load of
  // `builtWord`, and destroyed only by `LazyCell`'s deinitializer. The rest is immutable.

  /// 1 while the value is built and its scope runs, else 0: read without the lock.
  let builtWord: UnsafeMutablePointer<UInt>
  /// Where the value is stored, once built (`hasValue`): raw memory, in the same allocation as
  /// `builtWord`, so that a read copies the value alone. Never cleared, so a reader that saw
  /// `builtWord` set just before the scope closed still copies a live value.
  let storage: UnsafeMutableRawPointer

  let key: any InjectionKey.Type
  let site: OverrideSite
  let hasAsynchronousTeardown: Bool

  private var state = LazyState.declared
  fileprivate var hasValue = false
  /// The values the factory sees: the declaring scope's, from `open` to `close`.
  private var scope: Node?
  private var buildOrder: UInt = 0
  private var tornDown = false

  /// The cell that its scope opened after this one: the scope's list of cells (`LazyValues`).
  var nextOpened: LazyLifecycle?

  private let lock: Lock

  /// A cell whose value takes `size` bytes aligned to `alignment`: made only by `LazyCell`.
  fileprivate init(
    key: any InjectionKey.Type,
    site: OverrideSite,
    hasAsynchronousTeardown: Bool,
    size: Int,
    alignment: Int
  ) {
    self.key = key
    self.site = site
    self.hasAsynchronousTeardown = hasAsynchronousTeardown
    // One allocation for both: the word, then the value at the first offset aligned for it.
    let offset = max(MemoryLayout<UInt>.stride, alignment)
    let memory = UnsafeMutableRawPointer.allocate(
      byteCount: offset + size,
      alignment: max(MemoryLayout<UInt>.alignment, alignment)
    )
    builtWord = memory.initializeMemory(as: UInt.self, repeating: 0, count: 1)
    storage = memory + offset
    lock = Lock.striped(for: memory)
  }

  deinit {
    UnsafeMutableRawPointer(builtWord).deallocate()
  }

  var declaration: String {
    site.kind == .scope ? "lazy(\(key)) at \(site.fileID):\(site.line)" : "lazy(\(key))"
  }

  // MARK: - What depends on the value's type, which `LazyCell` overrides

  /// Runs the factory, on the thread that moved the cell to `building`, and stores its value at
  /// `storage`.
  func makeValue(seeing scope: Node?) {
    preconditionFailure("Injection: LazyLifecycle is abstract; LazyCell overrides this")
  }
  /// Runs the teardown on the value, which is built.
  func runTeardown() {
    preconditionFailure("Injection: LazyLifecycle is abstract; LazyCell overrides this")
  }
  /// Runs the teardown on the value, which is built, waiting for an asynchronous one.
  func runTeardown() async {
    preconditionFailure("Injection: LazyLifecycle is abstract; LazyCell overrides this")
  }
  /// The value, which is built, as descriptions show it.
  var valueDescription: String {
    preconditionFailure("Injection: LazyLifecycle is abstract; LazyCell overrides this")
  }
  /// The same declaration with a cell of its own, declared at `site`, linked to `next`.
  func redeclared(next: Node?, site: OverrideSite) -> Node {
    preconditionFailure("Injection: LazyLifecycle is abstract; LazyCell overrides this")
  }

  // MARK: - Reading

  /// What a read does next, decided under the lock.
  private enum Step {
    case build(seeing: Node?)
    case read
    case wait(for: UInt)
    case stop(LazyState)
  }

  /// Builds the value on the first read, or waits for another thread's build, and returns where
  /// it is stored (it stays there). Every decision is made under the lock; the factory runs, and
  /// its value is stored, without it. Reads of a built value go through `LazyBox.value(as:)`,
  /// which takes no lock.
  func build() -> UnsafeRawPointer {
    let thread = currentThreadID()
    let identity = UInt(bitPattern: ObjectIdentifier(self))
    CycleDetection.checkThisThread(key, cell: identity)
    var waited = false
    while true {
      let step = lock.withLock { () -> Step in
        switch state {
        case .open:
          state = .building(thread: thread)
          return .build(seeing: scope)
        case .built: return .read
        case .building(let builder): return .wait(for: builder)
        case .closed where waited && hasValue:
          // This read waited for a build as the scope ended: the value stays until the cell is
          // freed, as for a read that found it built just before.
          return .read
        case .declared, .closed: return .stop(state)
        }
      }
      switch step {
      case .build(let scope):
        makeValue(seeing: scope)
        lock.withLock {
          hasValue = true
          buildOrder = injection_next_build_order()
          state = .built
          injection_store_release(builtWord, 1)
          lock.wakeAll()
        }
        return UnsafeRawPointer(storage)
      case .read: return UnsafeRawPointer(storage)
      case .wait(let builder):
        if builder == thread { CycleDetection.stopForCycleOnThisThread(key, cell: identity) }
        waitForBuild(by: builder)
        waited = true
      case .stop(let state): misuse(state)
      }
    }
  }

  /// Waits until `builder` has finished building the value, telling cycle detection.
  private func waitForBuild(by builder: UInt) {
    let message = {
      "Injection: \(self.key), declared with lazy(_:_:)\(self.place), has been under construction "
        + "on another thread for \(CycleDetection.patienceSeconds) seconds while this read waits "
        + "for it: its factory seems to wait for a read of its own value on another thread or "
        + "task, and a dependency cycle may go through another thread. Still waiting."
    }
    CycleDetection.waiting(
      for: key,
      creatingThread: builder,
      stillCreating: { self.isBeingBuilt(by: builder) },
      message: message
    ) { deadline in
      lock.withLock {
        while case .building = state {
          guard let deadline else {
            lock.wait()
            continue
          }
          if !lock.wait(until: deadline), case .building = state { return false }
        }
        return true
      }
    }
  }

  /// Whether `thread` is building the value now: for cycle detection, which asks under its own
  /// lock.
  func isBeingBuilt(by thread: UInt) -> Bool {
    lock.withLock { state == .building(thread: thread) }
  }

  private var place: String {
    site.kind == .scope ? " at \(site.fileID):\(site.line)" : ""
  }

  /// Stops the program for a read that cannot be served: before the scope started, or after it
  /// ended.
  private func misuse(_ state: LazyState) -> Never {
    let message: String
    switch state {
    case .closed:
      message =
        "\(key), declared with lazy(_:_:)\(place), was read after its scope ended (for example "
        + "through a snapshot or a task that outlived the scope). Read it only while the scope "
        + "runs, or from its own teardowns."
    default:
      message =
        "\(key), declared with lazy(_:_:)\(place), was read before its scope started: in the "
        + "update closure that declares it, or on a value outside any update closure, which no "
        + "scope owns. Declare it in the update closure of withInjectedValues or of a test trait, "
        + "and read it in the operation."
    }
    fatalError("Injection: \(message)")
  }

  // MARK: - The scope's side

  /// Starts the scope that took the declaration: reads build the value, seeing `scope`. `false`
  /// if another scope took it first.
  func open(seeing scope: Node?) -> Bool {
    lock.withLock {
      guard state == .declared else { return false }
      state = .open
      self.scope = scope
      return true
    }
  }

  /// Calls `body` with this cell, the first its scope opened, and then with the others, in the
  /// order the scope opened them.
  func forEachInScope(_ body: (LazyLifecycle) -> Void) {
    body(self)
    var cell = nextOpened
    while let current = cell {
      body(current)
      cell = current.nextOpened
    }
  }

  /// For a declaration this scope took, before any read: reads see `scope` instead.
  func reopen(seeing scope: Node?) {
    let replaced = lock.withLock { () -> Node? in
      guard state == .open else { return nil }
      defer { self.scope = scope }
      return self.scope
    }
    withExtendedLifetime(replaced) {}  // released outside the lock
  }

  /// Waits while another thread builds the value; then, if it is built and its teardown has not
  /// been claimed, when its build ended (a number that grows with every build), else `nil`.
  func pendingTeardownOrder() -> UInt? {
    while true {
      let (builder, order) = lock.withLock { () -> (UInt?, UInt?) in
        if case .building(let thread) = state { return (thread, nil) }
        return (nil, state == .built && !tornDown ? buildOrder : nil)
      }
      guard let builder else { return order }
      waitForBuild(by: builder)
    }
  }

  /// Claims the teardown, for the one caller that is to run it.
  private func claimTeardown() -> Bool {
    lock.withLock {
      guard !tornDown, hasValue else { return false }
      tornDown = true
      return true
    }
  }

  /// Runs a synchronous teardown, unless it has run; the value must be built.
  func tearDown() {
    if claimTeardown() { runTeardown() }
  }

  /// Runs the teardown, unless it has run; the value must be built.
  func tearDown() async {
    if claimTeardown() { await runTeardown() }
  }

  /// Ends the scope: later reads stop the program. Waits for a build in flight first, and
  /// returns whether a built value still needs its teardown.
  func close() -> Bool {
    while true {
      let (builder, needsTeardown, scope) = lock.withLock { () -> (UInt?, Bool, Node?) in
        if case .building(let thread) = state { return (thread, false, nil) }
        let needsTeardown = state == .built && !tornDown
        state = .closed
        injection_store_release(builtWord, 0)
        defer { self.scope = nil }
        return (nil, needsTeardown, self.scope)
      }
      withExtendedLifetime(scope) {}  // released outside the lock
      guard let builder else { return needsTeardown }
      waitForBuild(by: builder)
    }
  }

  /// The value as descriptions show it.
  var description: String {
    switch lock.withLock({ state }) {
    case .declared, .open: return "(lazy, not built yet)"
    case .building: return "(lazy, being built)"
    case .built: return valueDescription
    case .closed: return "(lazy, its scope has ended)"
    }
  }
}

/// A value built on first use, once per scope, and torn down when the scope ends: what
/// `InjectedValues.lazy(_:_:teardown:)` declares. Its states and steps are those of
/// `LazyLifecycle`; this class adds what depends on the value's type. A read of a built value
/// goes through `LazyBox.value(as:)`: one atomic load and a copy, no lock.
@usableFromInline
final class LazyCell<Value: Sendable>: LazyLifecycle, @unchecked Sendable {
  // Safe: as `LazyLifecycle`; adds only `let` properties of `Sendable` types.
  let make: @Sendable () -> Value
  let teardown: LazyTeardown<Value>

  @usableFromInline
  init(
    key: any InjectionKey.Type,
    site: OverrideSite,
    make: @escaping @Sendable () -> Value,
    teardown: LazyTeardown<Value>
  ) {
    self.make = make
    self.teardown = teardown
    let isAsynchronous = if case .async = teardown { true } else { false }
    super.init(
      key: key,
      site: site,
      hasAsynchronousTeardown: isAsynchronous,
      size: MemoryLayout<Value>.size,
      alignment: MemoryLayout<Value>.alignment
    )
  }

  deinit {
    if hasValue { storage.assumingMemoryBound(to: Value.self).deinitialize(count: 1) }
  }

  /// The value, built on the first read: `build()`, typed, for tests that drive a cell directly.
  func value() -> Value {
    build().assumingMemoryBound(to: Value.self).pointee
  }

  override func makeValue(seeing scope: Node?) {
    let cell = UInt(bitPattern: ObjectIdentifier(self))
    let made = ContextFrame.reading(scope, creating: key, cell: cell) { make() }
    storage.initializeMemory(as: Value.self, to: made)
  }

  override func runTeardown() {
    switch teardown {
    case .none: break
    case .sync(let teardown): teardown(storage.assumingMemoryBound(to: Value.self).pointee)
    case .async: preconditionFailure("Injection: \(declaration) has an asynchronous teardown")
    }
  }

  override func runTeardown() async {
    switch teardown {
    case .none: break
    case .sync(let teardown): teardown(storage.assumingMemoryBound(to: Value.self).pointee)
    case .async(let teardown): await teardown(storage.assumingMemoryBound(to: Value.self).pointee)
    }
  }

  override var valueDescription: String {
    "\(storage.assumingMemoryBound(to: Value.self).pointee)"
  }

  override func redeclared(next: Node?, site: OverrideSite) -> Node {
    let cell = LazyCell(key: key, site: site, make: make, teardown: teardown)
    return LazyBox(cell, key: UInt(bitPattern: ObjectIdentifier(key)), next: next, site: site)
  }
}

/// One override of a key by a value built on first use: see `LazyLifecycle`.
///
/// Not generic: a read of `Key` copies the value out of the cell's storage as a `Key.Value`,
/// the box's value type, since a node is found only under its own key, whose value type the
/// declaration checked. A scope reaches the cell through `lifecycle`.
@usableFromInline
final class LazyBox: Node, @unchecked Sendable {
  // Safe: as `Node`; adds only `let` properties of `Sendable` types, and the two pointers into
  // the cell's raw memory that a read of a built value uses, whose rules `LazyLifecycle` states.
  let lifecycle: LazyLifecycle
  let site: OverrideSite
  /// The cell's `builtWord` and `storage`.
  @usableFromInline let builtWord: UnsafeMutablePointer<UInt>
  @usableFromInline let storage: UnsafeMutableRawPointer

  @usableFromInline
  init<Value>(_ cell: LazyCell<Value>, key: UInt, next: Node?, site: OverrideSite) {
    lifecycle = cell
    self.site = site
    builtWord = cell.builtWord
    storage = cell.storage
    super.init(key: key, kind: .lazyBox, next: next, layer: site.layer, depth: site.depth)
  }

  private init(_ box: LazyBox, next: Node?, site: OverrideSite) {
    lifecycle = box.lifecycle
    self.site = site
    builtWord = box.builtWord
    storage = box.storage
    super.init(key: box.key, kind: .lazyBox, next: next, layer: site.layer, depth: site.depth)
  }

  /// The value, of type `Value`, built on the first read: one atomic load and a copy once built.
  /// Compiled for `Value` where it is read, but kept out of the read of other overrides, which it
  /// would make too large to inline.
  @inlinable @inline(never)
  func value<Value>(as type: Value.Type) -> Value {
    let built = injection_load_acquire(builtWord) == 1 ? UnsafeRawPointer(storage) : build()
    return built.assumingMemoryBound(to: Value.self).pointee
  }

  /// Builds the value, or waits for it, and returns where it is stored.
  @usableFromInline
  func build() -> UnsafeRawPointer {
    lifecycle.build()
  }

  /// `node`'s lifecycle, if it is a box of a value built on first use.
  static func lifecycle(of node: Node) -> LazyLifecycle? {
    node.kind == .lazyBox ? unsafeDowncast(node, to: LazyBox.self).lifecycle : nil
  }

  override func relinked(to next: Node?, site: OverrideSite? = nil) -> Node {
    LazyBox(self, next: next, site: site ?? self.site)
  }

  override func collect(into table: inout KeyTable) {
    table.insertIfAbsent(self, for: key)
  }

  override var overrideKey: (any InjectionKey.Type)? { lifecycle.key }

  override var overrideDescription: (value: String, site: OverrideSite)? {
    (lifecycle.description, site)
  }
}
