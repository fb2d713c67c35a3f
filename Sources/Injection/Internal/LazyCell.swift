public import CInjectionSupport

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
/// The factory runs without any lock held. The value, once built, sits in an immutable `Built`
/// object whose address is published with release ordering in `word`, so that a read after the
/// build is one atomic load, and the object is kept until the cell is freed, so that a reader
/// that loaded the address before the scope closed still holds a live object.
@usableFromInline
final class LazyCell<Value: Sendable>: @unchecked Sendable {
  // Safe: `state` and `built` are read and written only while holding `lock`, declared beside
  // them; `word` is read and written atomically; everything else is immutable.

  /// How the value is torn down when its scope ends.
  enum Teardown: Sendable {
    case none
    case sync(@Sendable (Value) -> Void)
    case async(@Sendable (Value) async -> Void)
  }

  /// The value once built. Immutable, so reading it needs no lock.
  @usableFromInline
  final class Built: Sendable {
    @usableFromInline let value: Value
    init(_ value: Value) { self.value = value }
  }

  private enum State {
    case declared
    /// The scope has started; its values are what the factory sees.
    case open(Node?)
    /// A thread (`Thread.current`) runs the factory.
    case building(thread: UInt)
    case built
    case closed
  }

  /// 0 while the value is not built (read under the lock), 1 once closed, else the address of
  /// `built`.
  @usableFromInline let word: UnsafeMutablePointer<UInt>
  private let lock = Lock()
  private var state = State.declared
  private var built: Built?

  let make: @Sendable () -> Value
  let teardown: Teardown
  /// The key the value overrides, and where it was declared, for messages.
  let key: any InjectionKey.Type
  let site: OverrideSite

  init(
    key: any InjectionKey.Type,
    site: OverrideSite,
    make: @escaping @Sendable () -> Value,
    teardown: Teardown
  ) {
    self.key = key
    self.site = site
    self.make = make
    self.teardown = teardown
    word = .allocate(capacity: 1)
    word.initialize(to: 0)
  }

  deinit {
    word.deallocate()
  }

  /// The value, built on the first call.
  @inlinable
  func value(of key: (some InjectionKey).Type) -> Value {
    let address = injection_load_acquire(word)
    if address > 1 {
      return Unmanaged<Built>.fromOpaque(UnsafeRawPointer(bitPattern: address).unsafelyUnwrapped)
        ._withUnsafeGuaranteedRef { $0.value }
    }
    return valueOnSlowPath()
  }

  /// What a read that found the value not built does next.
  private enum NextStep {
    case use(Value)
    case build(seeing: Node?)
    case fail
  }

  @usableFromInline
  func valueOnSlowPath() -> Value {
    InjectedValues._checkingForCycles(key) {
      let thread = currentThreadID()
      let step = lock.withLock { () -> NextStep in
        while true {
          switch state {
          case .built: return .use(built!.value)
          case .open(let scope):
            state = .building(thread: thread)
            return .build(seeing: scope)
          case .building(let builder) where builder != thread: lock.wait()
          case .building, .declared, .closed: return .fail
          }
        }
      }
      switch step {
      case .use(let value): return value
      case .fail: misuse()
      case .build(let scope):
        let made = Built(ContextFrame.reading(scope, creating: key) { make() })
        lock.withLock {
          built = made
          state = .built
          injection_store_release(word, UInt(bitPattern: Unmanaged.passUnretained(made).toOpaque()))
          lock.wakeAll()
        }
        return made.value
      }
    }
  }

  /// Stops the program for a read that cannot be served: before the scope started, after it
  /// ended, or by the factory itself.
  private func misuse() -> Never {
    let where_ = site.kind == .scope ? " at \(site.fileID):\(site.line)" : ""
    let message: String
    switch lock.withLock({ state }) {
    case .declared:
      message =
        "\(key), declared with lazy(_:_:)\(where_), was read before its scope started: in the "
        + "update closure that declares it, or on a value outside any update closure, which no "
        + "scope owns. Declare it in the update closure of withInjectedValues or of a test trait, "
        + "and read it in the operation."
    case .closed:
      message =
        "\(key), declared with lazy(_:_:)\(where_), was read after its scope ended and its value "
        + "was torn down (for example through a snapshot or a task that outlived the scope). "
        + "Read it only while the scope runs."
    default:
      message = "dependency cycle detected: \(key) → \(key)"
    }
    fatalError("Injection: \(message)")
  }

  /// Starts the scope that owns the value: from now on a read builds it, seeing `scope`.
  func open(scope: Node?) {
    lock.withLock {
      if case .declared = state { state = .open(scope) }
    }
  }

  /// Ends the scope: later reads stop the program. Waits for a build in progress. Returns the
  /// value if it was built, for the caller to tear down outside the lock.
  func close() -> Value? {
    lock.withLock {
      while case .building = state { lock.wait() }
      let wasBuilt = built != nil
      state = .closed
      injection_store_release(word, 1)
      return wasBuilt ? built!.value : nil
    }
  }

  /// The value as descriptions show it.
  var description: String {
    switch lock.withLock({ state }) {
    case .declared, .open: "(lazy, not built yet)"
    case .building: "(lazy, being built)"
    case .built: "\(lock.withLock { built!.value })"
    case .closed: "(lazy, torn down)"
    }
  }
}

/// Learns the key behind a `lazy` declaration's accessor, and makes its box: the first key the
/// getter reads, whose value type must be the accessor's.
final class LazyDeclaration<Value: Sendable>: KeyProbe {
  let make: @Sendable () -> Value
  let teardown: LazyCell<Value>.Teardown
  private(set) var key: UInt?
  private(set) var makeBox: ((Node?, OverrideSite) -> Node)?

  init(make: @escaping @Sendable () -> Value, teardown: LazyCell<Value>.Teardown) {
    self.make = make
    self.teardown = teardown
  }

  override func read<Key: InjectionKey>(_ keyType: Key.Type) {
    guard key == nil else { return }
    guard Key.Value.self == Value.self else {
      preconditionFailure(
        "Injection: lazy(_:_:) was given an accessor of \(Value.self) whose getter reads "
          + "\(Key.self), a key of \(Key.Value.self). Use an accessor that reads and writes one key."
      )
    }
    // The types are equal, checked above: these casts only restate them.
    let make = unsafeBitCast(self.make, to: (@Sendable () -> Key.Value).self)
    let teardown = unsafeBitCast(self.teardown, to: LazyCell<Key.Value>.Teardown.self)
    key = InjectedValues._key(Key.self)
    makeBox = { next, site in
      let cell = LazyCell(key: Key.self, site: site, make: make, teardown: teardown)
      return LazyBox<Key>(cell, next: next, site: site)
    }
  }
}

/// What a scope does with the values built on first use that its update closure declared.
protocol ScopedLazyValue: AnyObject, Sendable {
  /// Whether the teardown is asynchronous, so that a synchronous scope cannot run it.
  var hasAsynchronousTeardown: Bool { get }
  /// The key and declaration site, for messages.
  var declaration: String { get }
  /// Starts the scope: from now on a read builds the value, seeing the scope's values.
  func open(scope: Node?)
  /// Ends the scope and runs a synchronous teardown, if the value was built.
  func closeAndTearDown()
  /// Ends the scope and runs the teardown, if the value was built.
  func closeAndTearDown() async
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
    guard let value = close() else { return }
    switch teardown {
    case .none: break
    case .sync(let teardown): teardown(value)
    case .async: preconditionFailure("Injection: \(declaration) has an asynchronous teardown")
    }
  }

  func closeAndTearDown() async {
    guard let value = close() else { return }
    switch teardown {
    case .none: break
    case .sync(let teardown): teardown(value)
    case .async(let teardown): await teardown(value)
    }
  }
}
