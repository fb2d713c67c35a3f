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
  /// `LazyCell.built` once the value is built, `LazyCell.closed` once its scope has ended:
  /// read and written only atomically, so that a read of a built value takes no lock.
  @usableFromInline var word: UInt = 0
  /// Where the cell is in its life: read and written only while holding the cell's lock.
  var state = LazyCellState.declared
  /// Whether the value (the cell's element) is initialized. Written once, under the lock.
  var hasValue = false
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

/// The life of a `LazyCell`.
enum LazyCellState {
  case declared
  /// A scope has taken the declaration as its own and started; its values are what the factory sees.
  case open(Node?)
  /// A thread (`currentThreadID()`) runs the factory.
  case building(thread: UInt)
  case built
  case closed
}

/// A value built on first use, once per scope, and torn down when the scope ends: what
/// `InjectedValues.lazy(_:_:teardown:)` declares.
///
/// Its life has five states:
///
/// 1. *declared*, by `lazy` in an update closure;
/// 2. *open*, once its scope starts: the first read builds it, with the scope's values visible;
/// 3. *building*, while one thread runs the factory; readers on other threads wait for it;
/// 4. *built*, read without a lock;
/// 5. *closed*, when the scope ends: a read stops the program (the value has been torn down).
///
/// The cell is one allocation: a header, and the value as its one element, initialized once
/// built. The state changes under a lock shared with a few other objects (`Lock.striped`),
/// taken only until the value is built and when the scope ends; the factory runs without it.
/// The builder initializes the value before it stores `built` in the header's word, with
/// release ordering, so that a read of the built value is one atomic load and one copy. The
/// value stays until the cell is freed, so a reader that saw `built` just before the scope
/// closed still reads a live value.
@usableFromInline
final class LazyCell<Value: Sendable>: ManagedBuffer<LazyCellHeader<Value>, Value> {
  // Shared across threads, though `ManagedBuffer` cannot be `Sendable`: `LazyBox`, which holds
  // the cell, is `@unchecked Sendable` on these grounds. `state` and `hasValue` are read and
  // written only while holding `lock`; `word` only atomically; the value is initialized once,
  // under the lock, before `word` says `built` (release), and read only after loading `built`
  // (acquire) or under the lock; the rest of the header is never written after creation.

  /// What the header's word holds once the value is built, or once its scope has ended.
  @usableFromInline static var built: UInt { 2 }
  static var closed: UInt { 1 }

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
    // `ManagedBuffer` destroys the header; the value is this class's to destroy.
    withUnsafeMutablePointers { header, value in
      if header.pointee.hasValue { value.deinitialize(count: 1) }
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
  private var teardown: LazyTeardown<Value> { fields.pointee.teardown }

  /// The value, built on the first call.
  @inlinable
  func value() -> Value {
    withUnsafeMutablePointers { header, value in
      injection_load_acquire(&header.pointee.word) == Self.built
        ? value.pointee : valueOnSlowPath()
    }
  }

  /// What a read that found the value not built does next.
  private enum NextStep {
    case use(Value)
    case build(seeing: Node?)
    case fail
    /// Another thread has been building the value for `CycleDetection.patienceSeconds`.
    case waitedTooLong
  }

  @usableFromInline
  func valueOnSlowPath() -> Value {
    let cell = UInt(bitPattern: ObjectIdentifier(self))
    return CycleDetection.checking(key, cell: cell) {
      let thread = currentThreadID()
      let step = lock.withLock { () -> NextStep in
        #if DEBUG
          var deadline: Lock.Deadline?
        #endif
        while true {
          switch fields.pointee.state {
          case .built: return .use(withUnsafeMutablePointerToElements { $0.pointee })
          case .open(let scope):
            fields.pointee.state = .building(thread: thread)
            return .build(seeing: scope)
          case .building(let builder) where builder != thread:
            #if DEBUG
              // A factory that waits for a read of its own value elsewhere would hang this read.
              let end = deadline ?? Lock.Deadline(afterSeconds: CycleDetection.patienceSeconds)
              deadline = end
              if !lock.wait(until: end) { return .waitedTooLong }
            #else
              lock.wait()
            #endif
          case .building, .declared, .closed: return .fail
          }
        }
      }
      switch step {
      case .use(let value): return value
      case .fail: misuse()
      case .waitedTooLong: waitedTooLong()
      case .build(let scope):
        let make = fields.pointee.make
        let made = ContextFrame.reading(scope, creating: key, cell: cell) { make() }
        lock.withLock {
          withUnsafeMutablePointers { header, value in
            value.initialize(to: made)
            header.pointee.hasValue = true
            header.pointee.state = .built
            injection_store_release(&header.pointee.word, Self.built)
          }
          lock.wakeAll()
        }
        return made
      }
    }
  }

  /// Stops the program for a read that cannot be served: before the scope started, after it
  /// ended, or by the factory itself.
  private func misuse() -> Never {
    let place = site.kind == .scope ? " at \(site.fileID):\(site.line)" : ""
    let message: String
    switch lock.withLock({ fields.pointee.state }) {
    case .declared:
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
    default:
      message = "dependency cycle detected: \(key) → \(key)"
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
  /// this scope needs a cell of its own (see `LazyBox.redeclared`). One lock, not one to take
  /// the declaration and one to start it: a scope entry declaring one value spent about 380
  /// instructions on the two.
  func claimAndOpen(scope: Node?) -> Bool {
    lock.withLock {
      guard case .declared = fields.pointee.state else { return false }
      fields.pointee.state = .open(scope)
      return true
    }
  }

  /// Starts the value with `scope` instead, if it is still declared or not yet read: for the
  /// cells of a scope whose values changed while it took its declarations.
  func reopen(scope: Node?) {
    lock.withLock {
      switch fields.pointee.state {
      case .declared, .open: fields.pointee.state = .open(scope)
      case .building, .built, .closed: break
      }
    }
  }

  /// A cell with the same declaration, not started by any scope.
  func redeclared(site: OverrideSite) -> LazyCell {
    // Field by field: other threads write the state fields.
    LazyCell.make(
      key: fields.pointee.key,
      site: site,
      make: fields.pointee.make,
      teardown: fields.pointee.teardown
    )
  }

  /// Ends the scope: later reads stop the program. Waits for a build in progress. Returns
  /// whether the value was built, for the caller to tear it down outside the lock.
  ///
  /// (Not the value as an optional: this code is not specialized for `Value`, and an optional
  /// of it would cost a metadata lookup per scope.)
  func close() -> Bool {
    lock.withLock {
      while case .building = fields.pointee.state { lock.wait() }
      fields.pointee.state = .closed
      injection_store_release(&fields.pointee.word, Self.closed)
      return fields.pointee.hasValue
    }
  }

  /// The value, once `close()` has said that it was built. It stays until the cell is freed.
  private var closedValue: Value {
    withUnsafeMutablePointerToElements { $0.pointee }
  }

  /// The value as descriptions show it.
  var description: String {
    let (state, value) = lock.withLock {
      withUnsafeMutablePointers { header, value in
        (header.pointee.state, header.pointee.hasValue ? value.pointee : nil)
      }
    }
    return switch state {
    case .declared, .open: "(lazy, not built yet)"
    case .building: "(lazy, being built)"
    case .built: "\(value!)"
    case .closed: "(lazy, torn down)"
    }
  }
}

extension LazyCell: ScopedLazyValue {
  var hasAsynchronousTeardown: Bool {
    if case .async = teardown { return true }
    return false
  }

  var declaration: String {
    site.kind == .scope ? "lazy(\(key)) at \(site.fileID):\(site.line)" : "lazy(\(key))"
  }

  func closeAndTearDown() {
    guard close() else { return }
    switch teardown {
    case .none: break
    case .sync(let teardown): teardown(closedValue)
    case .async: preconditionFailure("Injection: \(declaration) has an asynchronous teardown")
    }
  }

  func closeAndTearDown() async {
    guard close() else { return }
    switch teardown {
    case .none: break
    case .sync(let teardown): teardown(closedValue)
    case .async(let teardown): await teardown(closedValue)
    }
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

  override var scopedLazyValue: (any ScopedLazyValue)? { cell }
}
