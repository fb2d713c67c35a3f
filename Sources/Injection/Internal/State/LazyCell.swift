public import CInjectionSupport

/// How a value built on first use is torn down when its scope ends.
@usableFromInline
enum LazyTeardown<Value: Sendable>: Sendable {
  case none
  case sync(@Sendable (Value) -> Void)
  case async(@Sendable (Value) async -> Void)
}

/// What a `LazyCell` holds besides its value.
@usableFromInline
struct LazyCellHeader<Value: Sendable> {
  /// Where the cell is in its life: the raw value of a `LazyCell.Phase`, read and written only
  /// atomically. Every change of phase is one atomic operation on this word, so that starting and
  /// closing the cell take no lock, and a read of a built value loads only this word.
  @usableFromInline var word: UInt = 0
  /// The thread running the factory (`currentThreadID()`), while the phase is `building`: read and
  /// written only atomically.
  var builder: UInt = 0
  /// The values of the scope that started the cell, which the factory sees: retained by the cell,
  /// written only by that scope, while the phase is `starting`, and released when it closes the
  /// cell.
  var scope: Unmanaged<Node>?
  /// Whether the value (the cell's element) is initialized: written once, before the phase
  /// becomes `built`.
  var hasValue = false
  /// When the build ended (`injection_next_build_order`): written once, before the phase
  /// becomes `built`. The scope tears its values down latest-built first.
  var buildOrder: UInt = 0
  /// 1 once the teardown has been claimed, by the one caller that runs it: read and written
  /// only atomically.
  var tornDown: UInt = 0
  let make: @Sendable () -> Value
  let teardown: LazyTeardown<Value>
  /// The key the value overrides, and where it was declared, for messages.
  let key: any InjectionKey.Type
  let site: OverrideSite

  @usableFromInline
  init(
    make: @escaping @Sendable () -> Value,
    teardown: LazyTeardown<Value>,
    key: any InjectionKey.Type,
    site: OverrideSite
  ) {
    self.make = make
    self.teardown = teardown
    self.key = key
    self.site = site
  }
}

/// A value built on first use, once per scope, and torn down when the scope ends: what
/// `InjectedValues.lazy(_:_:teardown:)` declares.
///
/// Its life has the phases of `Phase`: *declared* by `lazy` in an update closure; *open* once its
/// scope starts, when the first read builds it, with the scope's values visible; *building* while
/// one thread runs the factory, when readers on other threads wait for it; *built*, read without
/// a lock; *closed* when the scope ends, when a read stops the program (the value has been torn
/// down).
///
/// The cell is one allocation: a header, and the value as its one element, initialized once
/// built. Every change of phase is one compare-and-exchange of the header's word, so a scope
/// starts and closes its cells without a lock. A lock (`Lock.striped`, shared with a few other
/// objects) is taken only to wait for a build on another thread, and by the builder to wake the
/// waiters; the factory runs without it. The builder initializes the value before it stores
/// `built` with release ordering, so that a read of the built value is one atomic load and one
/// copy. The value stays until the cell is freed, so a reader that saw `built` just before the
/// scope closed still reads a live value.
@usableFromInline
final class LazyCell<Value: Sendable>: ManagedBuffer<LazyCellHeader<Value>, Value> {
  // Shared across threads, though `ManagedBuffer` cannot be `Sendable`: `LazyBox`, which holds
  // the cell, is `@unchecked Sendable` on these grounds. `word` and `builder` are read and
  // written only atomically; `scope` only by the scope that started the cell, while it holds the
  // phase `starting` or when it closes the cell, and by the one builder, after it took the phase
  // `building` (which the closing scope waits for); `hasValue` and the value are written once,
  // by the builder, before it stores `built` (release), and read only after loading `built`
  // (acquire); the rest of the header is never written after creation.

  /// The phases of a cell, as its header's word holds them.
  enum Phase: UInt {
    /// Declared by `lazy`, not started by any scope.
    case declared = 0
    /// The scope has ended: a read stops the program.
    case closed = 1
    /// The value is built: reads return it.
    case built = 2
    /// A scope has taken the declaration as its own and started it: the first read builds it.
    case open = 3
    /// A thread runs the factory; readers on other threads wait.
    case building = 4
    /// The scope that owns the cell is setting the values the factory sees.
    case starting = 5
  }

  /// What the header's word holds once the value is built.
  @usableFromInline static var built: UInt { 2 }

  /// A cell for a value of `key`, declared at `site`.
  @inlinable
  static func make(
    key: any InjectionKey.Type,
    site: OverrideSite,
    make: @escaping @Sendable () -> Value,
    teardown: LazyTeardown<Value>
  ) -> LazyCell {
    let buffer = create(minimumCapacity: 1) { _ in
      LazyCellHeader(make: make, teardown: teardown, key: key, site: site)
    }
    return unsafeDowncast(buffer, to: LazyCell.self)  // `create` makes an instance of `Self`
  }

  deinit {
    // `ManagedBuffer` destroys the header; the value, and the scope's values the cell retained
    // (if it was started and never closed), are this class's to release.
    withUnsafeMutablePointers { header, value in
      if header.pointee.hasValue { value.deinitialize(count: 1) }
      header.pointee.scope?.release()
    }
  }

  private var lock: Lock { Lock.striped(for: self) }

  /// The header, read and written field by field in place. (`header` would copy all of it,
  /// including the fields that other threads write.) The address is valid while the cell lives:
  /// an object does not move.
  private var fields: UnsafeMutablePointer<LazyCellHeader<Value>> {
    withUnsafeMutablePointerToHeader { $0 }
  }

  var key: any InjectionKey.Type { fields.pointee.key }
  var site: OverrideSite { fields.pointee.site }
  var teardown: LazyTeardown<Value> { fields.pointee.teardown }

  /// The current phase (acquire: what was written before it was stored is visible).
  private var phase: Phase {
    Phase(rawValue: injection_load_acquire(&fields.pointee.word)).unsafelyUnwrapped
  }

  /// Moves the cell from phase `old` to `new`, if it is in `old`; `false` if it is not.
  private func move(from old: Phase, to new: Phase) -> Bool {
    injection_compare_exchange(&fields.pointee.word, old.rawValue, new.rawValue)
  }

  /// The value, built on the first call.
  @inlinable
  func value() -> Value {
    withUnsafeMutablePointers { header, value in
      injection_load_acquire(&header.pointee.word) == Self.built
        ? value.pointee : valueOnSlowPath()
    }
  }

  @usableFromInline
  func valueOnSlowPath() -> Value {
    CycleDetection.checking(key, cell: UInt(bitPattern: ObjectIdentifier(self))) {
      let thread = currentThreadID()
      var waited = false
      while true {
        let current = phase
        switch current {
        case .built: return withUnsafeMutablePointerToElements { $0.pointee }
        case .open:
          if move(from: .open, to: .building) { return build(on: thread) }
        case .building:
          // A read of the value by its own factory, directly or through other values it builds,
          // would wait for itself: the frames of this thread's builds give the chain.
          if injection_load_acquire(&fields.pointee.builder) == thread {
            CycleDetection.stopForCycleOnThisThread(
              key,
              cell: UInt(bitPattern: ObjectIdentifier(self))
            )
          }
          if !waitWhileBuilding(patiently: false) { waitedTooLong() }
          waited = true
        case .starting:
          // The scope that owns the cell is setting its values, a few instructions.
          yieldThread()
        case .closed where waited && fields.pointee.hasValue:
          // This read began while the scope ran and waited for the build; the scope ended as the
          // build did. The value stays until the cell is freed, as for a read that found it built.
          return withUnsafeMutablePointerToElements { $0.pointee }
        case .declared, .closed: misuse(current)
        }
      }
    }
  }

  /// Runs the factory, on the thread that moved the cell to `building`, and publishes the value.
  private func build(on thread: UInt) -> Value {
    injection_store_release(&fields.pointee.builder, thread)
    // The cell keeps its scope's values alive until the scope closes it, which waits for this
    // build to end.
    let scope = fields.pointee.scope?.takeUnretainedValue()
    let cell = UInt(bitPattern: ObjectIdentifier(self))
    let make = fields.pointee.make
    let made = ContextFrame.reading(scope, creating: key, cell: cell) { make() }
    lock.withLock {
      withUnsafeMutablePointers { header, value in
        value.initialize(to: made)
        header.pointee.hasValue = true
        header.pointee.buildOrder = UInt(injection_next_build_order())
        injection_store_release(&header.pointee.word, Phase.built.rawValue)
      }
      // Under the lock: a reader that saw `building` holds it until it waits.
      lock.wakeAll()
    }
    return made
  }

  /// Waits until the phase is no longer `building`. In debug builds a reader gives up after
  /// `CycleDetection.patienceSeconds` and gets `false`, unless `patiently`; the scope closing the
  /// cell always waits.
  private func waitWhileBuilding(patiently: Bool) -> Bool {
    lock.withLock {
      #if DEBUG
        if !patiently {
          let deadline = Lock.Deadline(afterSeconds: CycleDetection.patienceSeconds)
          while phase == .building {
            if !lock.wait(until: deadline) { return phase != .building }
          }
          return true
        }
      #endif
      while phase == .building { lock.wait() }
      return true
    }
  }

  /// Stops the program for a read that cannot be served: before the scope started, or after it
  /// ended.
  private func misuse(_ phase: Phase) -> Never {
    let place = site.kind == .scope ? " at \(site.fileID):\(site.line)" : ""
    let message: String
    switch phase {
    case .declared, .starting:
      message =
        "\(key), declared with lazy(_:_:)\(place), was read before its scope started: in the "
        + "update closure that declares it, or on a value outside any update closure, which no "
        + "scope owns. Declare it in the update closure of withInjectedValues or of a test trait, "
        + "and read it in the operation."
    case .closed:
      message =
        "\(key), declared with lazy(_:_:)\(place), was read after its scope ended and its value "
        + "was torn down (for example through a snapshot or a task that outlived the scope). "
        + "Read it only while the scope runs."
    case .open, .building, .built:
      preconditionFailure("Injection: \(declaration) can be read in phase \(phase)")
    }
    fatalError("Injection: \(message)")
  }

  /// Stops the program for a read that has waited `CycleDetection.patienceSeconds` for another
  /// thread to build the value (debug builds).
  private func waitedTooLong() -> Never {
    let place = site.kind == .scope ? " at \(site.fileID):\(site.line)" : ""
    fatalError(
      "Injection: \(key), declared with lazy(_:_:)\(place), has been under construction on "
        + "another thread for \(CycleDetection.patienceSeconds) seconds while this read waits for "
        + "it: its factory seems to wait for a read of its own value on another thread or task, "
        + "a dependency cycle through another thread. A factory must not wait for work that reads "
        + "the value it builds."
    )
  }

  /// Takes the declaration for the scope about to start, and starts it: from now on a read
  /// builds the value, seeing `scope`. `false` if another scope took it first, in which case
  /// this scope needs a cell of its own (see `LazyBox.redeclared`).
  func claimAndOpen(scope: Node?) -> Bool {
    guard move(from: .declared, to: .starting) else { return false }
    start(seeing: scope)
    return true
  }

  /// Starts the value with `scope` instead, if it is still declared or not yet read: for the
  /// cells of a scope whose values changed while it took its declarations.
  func reopen(scope: Node?) {
    if move(from: .open, to: .starting) || move(from: .declared, to: .starting) {
      start(seeing: scope)
    }
  }

  /// In phase `starting`: makes `scope` the values the factory sees, and opens the cell.
  private func start(seeing scope: Node?) {
    fields.pointee.scope?.release()
    fields.pointee.scope = scope.map { Unmanaged.passRetained($0) }
    // Only the owning scope leaves `starting`; `close()` waits for it.
    let opened = move(from: .starting, to: .open)
    precondition(opened, "Injection: \(declaration) changed phase while its scope started it")
  }

  /// A cell with the same declaration, not started by any scope.
  func redeclared(site: OverrideSite) -> LazyCell {
    LazyCell.make(
      key: fields.pointee.key,
      site: site,
      make: fields.pointee.make,
      teardown: fields.pointee.teardown
    )
  }

  /// Ends the scope: later reads stop the program. Waits for a build in progress. Returns
  /// whether the value was built, for the caller to tear it down; `false` from a second call, so
  /// that the teardown runs once.
  ///
  /// (Not the value as an optional: this code is not specialized for `Value`, and an optional
  /// of it would cost a metadata lookup per scope.)
  func close() -> Bool {
    while true {
      let current = phase
      switch current {
      case .closed: return false  // closed before: its teardown has run, or was not due
      case .building: _ = waitWhileBuilding(patiently: true)
      case .starting: yieldThread()
      case .declared, .open, .built:
        guard move(from: current, to: .closed) else { continue }
        // No build can start any more, and none runs: the scope's values are no longer needed.
        fields.pointee.scope?.release()
        fields.pointee.scope = nil
        return current == .built
      }
    }
  }

  /// The value, once it is built (its phase was `built`, or `close()` said it was built). It
  /// stays until the cell is freed.
  var builtValue: Value {
    withUnsafeMutablePointerToElements { $0.pointee }
  }

  /// When the build ended, if the value is built and its teardown has not run; else 0.
  var pendingTeardownOrder: UInt {
    guard phase == .built, injection_load_acquire(&fields.pointee.tornDown) == 0 else { return 0 }
    return fields.pointee.buildOrder
  }

  /// Claims the teardown of a built value: `true` for the one caller that is to run it.
  private func claimTeardown() -> Bool {
    injection_compare_exchange(&fields.pointee.tornDown, 0, 1)
  }

  /// Runs a synchronous teardown, unless it has run; the value must be built.
  func tearDown() {
    guard claimTeardown() else { return }
    switch teardown {
    case .none: break
    case .sync(let teardown): teardown(builtValue)
    case .async: preconditionFailure("Injection: \(declaration) has an asynchronous teardown")
    }
  }

  /// Runs the teardown, unless it has run; the value must be built.
  func tearDown() async {
    guard claimTeardown() else { return }
    switch teardown {
    case .none: break
    case .sync(let teardown): teardown(builtValue)
    case .async(let teardown): await teardown(builtValue)
    }
  }

  /// The value as descriptions show it.
  var description: String {
    switch phase {
    case .declared, .starting, .open: "(lazy, not built yet)"
    case .building: "(lazy, being built)"
    case .built: "\(withUnsafeMutablePointerToElements { $0.pointee })"
    case .closed: "(lazy, torn down)"
    }
  }

  /// The key and declaration site, for messages.
  var declaration: String {
    site.kind == .scope ? "lazy(\(key)) at \(site.fileID):\(site.line)" : "lazy(\(key))"
  }

  /// Runs a synchronous teardown, if the value was built and its teardown has not run, while
  /// the value can still be read; then ends the scope, and tears down a value that another task
  /// finished building meanwhile.
  func closeAndTearDown() {
    if phase == .built { tearDown() }
    if close() { tearDown() }
  }

  /// Runs the teardown, if the value was built and its teardown has not run, while the value can
  /// still be read; then ends the scope, as the synchronous `closeAndTearDown()` does.
  func closeAndTearDown() async {
    if phase == .built { await tearDown() }
    if close() { await tearDown() }
  }
}

/// One override of a key by a value built on first use: see `LazyCell`.
///
/// Generic over the value's type rather than the key, so that a declaration, which learns its
/// key only when it runs (see `InjectedValues.lazy(_:_:teardown:)`), is compiled for its value
/// type. A read of `Key` downcasts to `LazyBox<Key.Value>`, which is the box's type: a node is
/// found only under its own key, whose value type the declaration checked.
@usableFromInline
final class LazyBox<Value: Sendable>: Node, @unchecked Sendable {
  // Safe: as `Node`; adds only `let` properties of `Sendable` types, and the cell, which is
  // shared safely across threads (see `LazyCell`).
  @usableFromInline let cell: LazyCell<Value>
  @usableFromInline let site: OverrideSite

  @inlinable
  init(_ cell: LazyCell<Value>, key: UInt, next: Node?, site: OverrideSite) {
    self.cell = cell
    self.site = site
    super.init(
      key: key,
      kind: .lazyBox,
      next: next,
      layer: site.layer,
      depth: site.depth
    )
  }

  override func relinked(to next: Node?) -> Node {
    LazyBox(cell, key: key, next: next, site: site)
  }

  override func redeclared(next: Node?, site: OverrideSite) -> Node {
    LazyBox(cell.redeclared(site: site), key: key, next: next, site: site)
  }

  override func collect(into table: inout KeyTable) {
    table.insertIfAbsent(self, for: key)
  }

  override var overrideKey: (any InjectionKey.Type)? { cell.key }

  override var overrideDescription: (value: String, site: OverrideSite)? {
    (cell.description, site)
  }

  override func startLazyValue(seeing scope: Node?, synchronously: Bool) -> Bool {
    if synchronously, case .async = cell.teardown {
      fatalError(
        "Injection: \(cell.declaration) has an asynchronous teardown, which a synchronous "
          + "withInjectedValues cannot wait for. Pass a synchronous teardown, or call "
          + "withInjectedValues from an asynchronous function with `await`. (In top-level code, "
          + "such as main.swift, Swift picks the synchronous form even after `await`, and warns "
          + "that no async operations occur there: write the operation as `{ () async in … }`, "
          + "or move the call into an asynchronous function.)"
      )
    }
    return cell.claimAndOpen(scope: scope)
  }

  override func restartLazyValue(seeing scope: Node?) {
    cell.reopen(scope: scope)
  }

  override var pendingTeardownOrder: UInt { cell.pendingTeardownOrder }

  override func tearDownLazyValue() {
    cell.tearDown()
  }

  override func tearDownLazyValue() async {
    await cell.tearDown()
  }

  override func endLazyValue() {
    cell.closeAndTearDown()
  }

  override func endLazyValue() async {
    await cell.closeAndTearDown()
  }
}
