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
/// | `open` | its scope runs; nothing built yet | `building`, by the first reader |
/// | `building` | one thread runs the factory, without the lock; other readers wait | `built`, by that thread |
/// | `built` | reads return the value without the lock | `closed`, by its scope |
/// | `closed` | its scope has ended; a read stops the program | none |
///
/// A scope ends its cells in two steps (`InjectedValues.endLazyValues`): first the teardowns,
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

/// What a scope does with the values built on first use that it declared, whatever their type.
protocol LazyLifecycle: AnyObject, Sendable {
  /// The key the value overrides.
  var key: any InjectionKey.Type { get }
  /// The key and where it was declared, for messages.
  var declaration: String { get }
  /// Whether its teardown is asynchronous.
  var hasAsynchronousTeardown: Bool { get }
  /// Starts the scope that took the declaration: reads build the value, seeing `scope`. `false`
  /// if another scope took it first.
  func open(seeing scope: Node?) -> Bool
  /// For a declaration this scope took, before any read: reads see `scope` instead.
  func reopen(seeing scope: Node?)
  /// Waits while another thread builds the value; then, if it is built and its teardown has not
  /// been claimed, when its build ended (a number that grows with every build), else `nil`.
  func pendingTeardownOrder() -> UInt?
  /// Runs a synchronous teardown, unless it has run; the value must be built.
  func tearDown()
  /// Runs the teardown, unless it has run; the value must be built.
  func tearDown() async
  /// Ends the scope: later reads stop the program. Waits for a build in flight first, and
  /// returns whether a built value still needs its teardown.
  func close() -> Bool
  /// The same declaration with a cell of its own, declared at `site`, linked to `next`.
  func redeclared(next: Node?, site: OverrideSite) -> Node
  /// Builds the value, or waits for it, and returns where it is stored (it stays there).
  func build() -> UnsafeRawPointer
  /// The value as descriptions show it.
  var description: String { get }
}

/// A value built on first use, once per scope, and torn down when the scope ends: what
/// `InjectedValues.lazy(_:_:teardown:)` declares. Its states are those of `LazyState`.
///
/// A read of a built value loads one word atomically (`builtWord`, raw memory of its own) and
/// copies the value from raw memory (`storage`), where it was stored before the word was set:
/// no lock. (`LazyBox` holds both pointers, so that a read needs no generic code.) Every other step takes
/// the cell's lock (`Lock.striped`), and no user code (the factory, a teardown) runs under it.
@usableFromInline
final class LazyCell<Value: Sendable>: LazyLifecycle, @unchecked Sendable {
  // Safe: `state`, `hasValue`, `scope`, `buildOrder` and `tornDown` are read and written only
  // under `lock`; `storage` is initialized once, under the lock, before `builtWord` is set with a
  // release store, and read either under the lock or after an acquire load of `builtWord` that
  // saw it set; it is never written again. The rest is immutable.

  /// 1 while the value is built and its scope runs, else 0: read without the lock.
  let builtWord: UnsafeMutablePointer<UInt>
  /// The value, once built (`hasValue`): raw memory rather than an optional stored property, so
  /// that a read copies the value alone. Written once, before `builtWord` is set, and never
  /// cleared, so a reader that saw `builtWord` set just before the scope closed still copies a
  /// live value.
  let storage: UnsafeMutablePointer<Value>

  let key: any InjectionKey.Type
  let site: OverrideSite
  let make: @Sendable () -> Value
  let teardown: LazyTeardown<Value>

  private var state = LazyState.declared
  private var hasValue = false
  /// The values the factory sees: the declaring scope's, from `open` to `close`.
  private var scope: Node?
  private var buildOrder: UInt = 0
  private var tornDown = false

  private let lock: Lock

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
    // One allocation for both: the word, then the value at the first offset aligned for it.
    let offset = max(MemoryLayout<UInt>.stride, MemoryLayout<Value>.alignment)
    let memory = UnsafeMutableRawPointer.allocate(
      byteCount: offset + MemoryLayout<Value>.size,
      alignment: max(MemoryLayout<UInt>.alignment, MemoryLayout<Value>.alignment)
    )
    builtWord = memory.initializeMemory(as: UInt.self, repeating: 0, count: 1)
    storage = (memory + offset).bindMemory(to: Value.self, capacity: 1)
    lock = Lock.striped(for: memory)
  }

  deinit {
    if hasValue { storage.deinitialize(count: 1) }
    UnsafeMutableRawPointer(builtWord).deallocate()
  }

  var declaration: String {
    site.kind == .scope ? "lazy(\(key)) at \(site.fileID):\(site.line)" : "lazy(\(key))"
  }

  var hasAsynchronousTeardown: Bool {
    if case .async = teardown { return true }
    return false
  }

  // MARK: - Reading

  func build() -> UnsafeRawPointer {
    _ = value()
    return UnsafeRawPointer(storage)
  }

  /// What a read does next, decided under the lock.
  private enum Step {
    case build(seeing: Node?)
    case read(Value)
    case wait(for: UInt)
    case stop(LazyState)
  }

  /// The value, built on the first read, with every step under the lock. (Reads of a built
  /// value go through `LazyBox.value(as:)`, which takes no lock.)
  func value() -> Value {
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
        case .built: return .read(storage.pointee)
        case .building(let builder): return .wait(for: builder)
        case .closed where waited && hasValue:
          // This read waited for a build as the scope ended: the value stays until the cell is
          // freed, as for a read that found it built just before.
          return .read(storage.pointee)
        case .declared, .closed: return .stop(state)
        }
      }
      switch step {
      case .build(let scope): return build(seeing: scope)
      case .read(let value): return value
      case .wait(let builder):
        if builder == thread { CycleDetection.stopForCycleOnThisThread(key, cell: identity) }
        waitForBuild(by: builder)
        waited = true
      case .stop(let state): misuse(state)
      }
    }
  }

  /// Runs the factory on this thread, which moved the cell to `building`, and publishes the
  /// value.
  private func build(seeing scope: Node?) -> Value {
    let cell = UInt(bitPattern: ObjectIdentifier(self))
    let made = ContextFrame.reading(scope, creating: key, cell: cell) { make() }
    lock.withLock {
      storage.initialize(to: made)
      hasValue = true
      buildOrder = injection_next_build_order()
      state = .built
      injection_store_release(builtWord, 1)
      lock.wakeAll()
    }
    return made
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

  func open(seeing scope: Node?) -> Bool {
    lock.withLock {
      guard state == .declared else { return false }
      state = .open
      self.scope = scope
      return true
    }
  }

  func reopen(seeing scope: Node?) {
    let replaced = lock.withLock { () -> Node? in
      guard state == .open else { return nil }
      defer { self.scope = scope }
      return self.scope
    }
    withExtendedLifetime(replaced) {}  // released outside the lock
  }

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

  /// Claims the teardown: the value, for the one caller that is to run it.
  private func claimTeardown() -> Value? {
    lock.withLock {
      guard !tornDown, hasValue else { return nil }
      tornDown = true
      return storage.pointee
    }
  }

  func tearDown() {
    guard let value = claimTeardown() else { return }
    switch teardown {
    case .none: break
    case .sync(let teardown): teardown(value)
    case .async: preconditionFailure("Injection: \(declaration) has an asynchronous teardown")
    }
  }

  func tearDown() async {
    guard let value = claimTeardown() else { return }
    switch teardown {
    case .none: break
    case .sync(let teardown): teardown(value)
    case .async(let teardown): await teardown(value)
    }
  }

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

  func redeclared(next: Node?, site: OverrideSite) -> Node {
    let cell = LazyCell(key: key, site: site, make: make, teardown: teardown)
    return LazyBox(cell, key: UInt(bitPattern: ObjectIdentifier(key)), next: next, site: site)
  }

  /// The value as descriptions show it.
  var description: String {
    let (state, value) = lock.withLock { (self.state, hasValue ? storage.pointee : nil) }
    switch state {
    case .declared, .open: return "(lazy, not built yet)"
    case .building: return "(lazy, being built)"
    case .built: return "\(value!)"
    case .closed: return "(lazy, its scope has ended)"
    }
  }
}

/// One override of a key by a value built on first use: see `LazyCell`.
///
/// Not generic: a read of `Key` copies the value out of the cell's storage as a `Key.Value`,
/// the box's value type, since a node is found only under its own key, whose value type the
/// declaration checked. A scope reaches the cell through `lifecycle`.
@usableFromInline
final class LazyBox: Node, @unchecked Sendable {
  // Safe: as `Node`; adds only `let` properties of `Sendable` types, and the cell's two words
  // that a read of a built value uses, which the cell guards (see `LazyCell`).
  let lifecycle: any LazyLifecycle
  let site: OverrideSite
  /// The cell's `builtWord` and `storage`.
  @usableFromInline let builtWord: UnsafeMutablePointer<UInt>
  @usableFromInline let storage: UnsafeMutableRawPointer

  @usableFromInline
  init<Value>(_ cell: LazyCell<Value>, key: UInt, next: Node?, site: OverrideSite) {
    lifecycle = cell
    self.site = site
    builtWord = cell.builtWord
    storage = UnsafeMutableRawPointer(cell.storage)
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
  static func lifecycle(of node: Node) -> (any LazyLifecycle)? {
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
