public import CInjectionSupport

/// What the current thread is doing for the library, if anything: how a read or a write in
/// synchronous code finds values other than the task's own.
///
/// A frame lives on the stack of the function that pushes it, for one synchronous stretch of
/// code, and the thread's slot points to the innermost one; each links to the one it hides.
/// Frames say:
///
/// - `update`: an update closure is running; `$0` is the value at `values`. Reads through
///   `InjectedValues.current`, `InjectedValues[\.x]`, `@Injected` and seed-style getters see it,
///   and seed-style setters (`Self[Key.self] = v`) write into it. Only the task that pushed the
///   frame is concerned: a task started with `Task.immediate` inside the closure runs on this
///   thread but sees its own values.
/// - `reading`: a default or a value built on first use is being created; reads see the chain at
///   `head` (none for a default, the declaring scope's for a `lazy` value), and `creating` is on
///   the chain of keys that cycle detection checks.
/// - `probe`: an accessor runs only so that the library learns which keys it reads; reads see
///   the chain at `head`, a `ProbeNode`, and are recorded at `owner`.
/// - `operation`: a scope's operation runs inside one of the above; reads see the task's values
///   again and seed-style setters set global values.
///
/// Asynchronous update closures, which may change threads, use an `UpdateMarker` instead.
///
/// Every field is trivial: what a frame refers to is kept alive by the function that pushed it,
/// for as long as the frame is pushed, so pushing and popping one retains nothing.
@usableFromInline
struct ContextFrame {
  @usableFromInline
  enum Kind: UInt8 {
    case update
    case reading
    case probe
    case operation
  }

  @usableFromInline let kind: Kind
  /// For `update` frames, the task that pushed it (see `currentTask`). For `reading` frames of a
  /// value built on first use, the address of its cell, which tells it apart from the key's
  /// default in cycle detection. For `probe` frames, the address of what records the keys read
  /// (a `KeyProbe`). 0 otherwise.
  @usableFromInline let owner: UInt
  /// For `update` frames, the values the update closure builds.
  @usableFromInline let values: UnsafeMutablePointer<InjectedValues>?
  /// For `reading` and `probe` frames, the chain that reads see.
  @usableFromInline let head: Unmanaged<Node>?
  /// For `reading` frames, the key being created, if any.
  @usableFromInline let creating: (any InjectionKey.Type)?
  @usableFromInline let previous: UnsafeMutableRawPointer?
  /// For `update` frames, the latest chain written while the closure runs, retained until the
  /// frame is popped (see `keep(_:)`). Unmanaged, so that frames stay trivial to push and pop.
  @usableFromInline var kept: Unmanaged<Node>?
  /// For `update` frames, the chain of the values being built, retained like `kept` while the
  /// latest chain written is another value's (see `keep(_:)`); `nil` otherwise.
  @usableFromInline var keptOwn: Unmanaged<Node>?
  /// For `update` frames, the chains `$0` held before seed-style setters wrote behind it and
  /// dropped them, retained until the frame is popped (see `holdUntilPopped`); `nil` until
  /// the first such write.
  @usableFromInline var heldBeforeSeedWrites: Unmanaged<HeldChains>?

  @inlinable
  init(
    _ kind: Kind,
    owner: UInt = 0,
    values: UnsafeMutablePointer<InjectedValues>? = nil,
    head: Node? = nil,
    creating: (any InjectionKey.Type)? = nil,
    previous: UnsafeMutableRawPointer?
  ) {
    self.kind = kind
    self.owner = owner
    self.values = values
    // Not `head.map`: unoptimized, the generic call looks up `Unmanaged<Node>`'s metadata in the
    // runtime's shared table on every frame, and threads of a debug build wait for each other.
    if let head { self.head = Unmanaged.passUnretained(head) } else { self.head = nil }
    self.creating = creating
    self.previous = previous
    self.kept = nil
    self.keptOwn = nil
    self.heldBeforeSeedWrites = nil
  }

  /// The innermost frame of this thread, if any.
  @inlinable
  static var top: UnsafeMutablePointer<ContextFrame>? {
    injection_context_get()?.assumingMemoryBound(to: ContextFrame.self)
  }

  /// Runs `body` with `frame` pushed on this thread. `frame.previous` must be the current top.
  @inlinable
  static func with<Result, Failure: Error>(
    _ frame: ContextFrame,
    _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    var frame = frame
    return try _withUnprotectedUnsafeMutablePointer(to: &frame) {
      (pointer) throws(Failure) -> Result in
      injection_context_set(pointer)
      defer { injection_context_set(pointer.pointee.previous) }
      return try body()
    }
  }

  /// Runs `body` with the `update` frame for the values at `values` pushed on this thread, and
  /// releases the chain the frame kept (see `keep(_:)`) when it is popped.
  @inlinable
  static func withUpdate<Result, Failure: Error>(
    of values: UnsafeMutablePointer<InjectedValues>,
    _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    var frame = ContextFrame(
      .update,
      owner: currentTask,
      values: values,
      previous: injection_context_get()
    )
    return try _withUnprotectedUnsafeMutablePointer(to: &frame) {
      (pointer) throws(Failure) -> Result in
      injection_context_set(pointer)
      defer {
        injection_context_set(pointer.pointee.previous)
        pointer.pointee.kept?.release()
        pointer.pointee.keptOwn?.release()
        pointer.pointee.heldBeforeSeedWrites?.release()
      }
      return try body()
    }
  }

  /// Runs `body` with a `reading` frame pushed: reads see the chain at `head`. `cell` is the
  /// address of the cell of a value built on first use, 0 for a default.
  @inlinable
  static func reading<Result>(
    _ head: Node?,
    creating key: (any InjectionKey.Type)?,
    cell: UInt = 0,
    _ body: () -> Result
  ) -> Result {
    withExtendedLifetime(head) {
      with(
        ContextFrame(
          .reading,
          owner: cell,
          head: head,
          creating: key,
          previous: injection_context_get()
        ),
        body
      )
    }
  }

  /// An identity of the task running this code, or 0 outside any task.
  ///
  /// Only compared, never used to reach the task: a frame's owner runs while its frame is
  /// pushed, and an `UpdateMarker` compares it only while its update runs.
  @inlinable
  static var currentTask: UInt {
    // An optional task is one word, 0 for none; the cast reads it without retaining the task.
    withUnsafeCurrentTask { unsafeBitCast($0, to: UInt.self) }
  }

  /// The frame below this one.
  var below: UnsafeMutablePointer<ContextFrame>? {
    previous?.assumingMemoryBound(to: ContextFrame.self)
  }

  /// The values of the update closure this frame belongs to, if it is one and the current task
  /// pushed it.
  @usableFromInline
  func updateValues() -> UnsafeMutablePointer<InjectedValues>? {
    guard kind == .update, owner == Self.currentTask else { return nil }
    return values
  }

  /// The keys being created on this thread, innermost first, each with its cell (0 for a
  /// default).
  static func keysBeingCreated(
    from top: UnsafeMutablePointer<ContextFrame>?
  ) -> [(key: any InjectionKey.Type, cell: UInt)] {
    var keys: [(key: any InjectionKey.Type, cell: UInt)] = []
    var frame = top
    while let current = frame {
      if current.pointee.kind == .reading, let key = current.pointee.creating {
        keys.append((key, current.pointee.owner))
      }
      frame = current.pointee.below
    }
    return keys
  }
}

/// Why an update frame keeps the latest chain written while its closure runs (`kept`).
///
/// The closure holds the values being built as `inout $0`, and the library reaches the same
/// memory through the frame (reads, `InjectedValues.current`, seed-style setters). Swift assumes
/// that nothing else touches an `inout` argument, so for `$0 = expression` an optimized build may
/// release `$0`'s old value before it evaluates the expression; if the expression reads the
/// values being built through the frame (`$0 = InjectedValues.current`), it would read a chain
/// just freed. So every chain the library writes, or hands out through `current`, while an update
/// closure runs on this thread is also held by the frame until the next one, and released when
/// the frame is popped. A write to another value than `$0` (a snapshot, `InjectedValues()`, or a
/// task started inside the closure writing its own values) is a latest chain that is not `$0`'s:
/// then the frame also holds `$0`'s own chain (`keptOwn`), so that `$0`'s memory always refers to
/// live nodes. (A value the closure derives from the values being built links to their chain, so
/// holding its chain holds theirs.) An asynchronous update closure's `UpdateMarker` does the same.
extension ContextFrame {
  /// Holds `head` (retained) until the next call or until the frame is popped, and the chain of
  /// the values being built too if `head` is not theirs.
  @inlinable @inline(__always)
  mutating func keep(_ head: Node?) {
    // Compared by address, without retaining: in the usual case, a write to `$0` itself, `head`
    // is `$0`'s chain, and holding it is all there is to do.
    let written: UInt
    if let head { written = UInt(bitPattern: ObjectIdentifier(head)) } else { written = 0 }
    guard keptOwn == nil, InjectedValues.headAddress(at: values.unsafelyUnwrapped) == written else {
      return keepBesidesOwnChain(head)
    }
    let old = kept
    kept = head.map { Unmanaged.passRetained($0) }
    old?.release()
  }

  /// `keep(_:)` when `head` is not the chain of the values being built, or was not the last time:
  /// holds their chain too (in `keptOwn`) while it is not `head`. `$0`'s chain is held before the
  /// chain kept so far is released: that may be all that holds it, if the optimizer has released
  /// `$0`'s value early.
  @usableFromInline
  mutating func keepBesidesOwnChain(_ head: Node?) {
    let own = values.unsafelyUnwrapped.pointee.head
    let newOwn = own === head ? nil : own.map { Unmanaged.passRetained($0) }
    let oldOwn = keptOwn
    keptOwn = newOwn
    let old = kept
    kept = head.map { Unmanaged.passRetained($0) }
    oldOwn?.release()
    old?.release()
  }

  /// Holds `chain` until the frame is popped: what `$0` referred to before a seed-style setter
  /// wrote into the values being built behind the closure's back and dropped it (a rewrite of a
  /// key relinks the value's own overrides; more keys than a value links one by one move into an
  /// index). The frame retains it.
  ///
  /// The optimizer sees no write to `$0` in a seed-style setter, so the closure may go on using a
  /// copy of `$0` it loaded before the write (a read of `$0` itself later in the closure: a copy,
  /// `$0.description`, an instance-style getter), and that copy refers to the chain before the
  /// write. Held, it refers to live nodes until the closure returns. A write of a new key links
  /// to the chain before it, which `keep` holds with it. Design.md, "Frames", says what such a
  /// read sees.
  @usableFromInline
  mutating func holdUntilPopped(_ chain: Node) {
    if let held = heldBeforeSeedWrites {
      held._withUnsafeGuaranteedRef { $0.chains.append(chain) }
    } else {
      heldBeforeSeedWrites = Unmanaged.passRetained(HeldChains(chain))
    }
  }
}

/// The chains an update frame holds until it is popped: what `$0` referred to before a
/// seed-style write dropped it (see `ContextFrame.holdUntilPopped`).
@usableFromInline
final class HeldChains {
  var chains: [Node]

  init(_ first: Node) { chains = [first] }
}
