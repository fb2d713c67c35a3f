public import CInjectionSupport

/// What the current thread is doing for the library, if anything: how a read or a write in
/// synchronous code finds values other than the task's own.
///
/// A frame lives on the stack of the function that pushes it, for one synchronous stretch of
/// code, and the thread's slot points to the innermost one; each links to the one it hides.
/// Every frame but `operation` shows a chain (`head`) to the reads made under it:
///
/// - `update`: an update closure runs; `head` is its `UpdateBuilder`, which seed-style setters
///   write into and which resolves reads for the code of the closure (see `UpdateBuilder`).
/// - `reading`: a default or a value built on first use is being created; reads see `head` (none
///   for a default, the declaring scope's chain for a `lazy` value), and `creating` is the key
///   that cycle detection checks.
/// - `probe`: an accessor runs only so that the library learns which keys it reads; `head` is a
///   `ProbeNode`, and the keys read are recorded at `owner`.
/// - `operation`: a scope's operation runs inside one of the above; reads see the task's values
///   again and seed-style setters set global values.
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
  /// For `reading` frames of a value built on first use, the address of its cell, which tells it
  /// apart from the key's default in cycle detection. For `probe` frames, the address of what
  /// records the keys read (a `KeyProbe`). 0 otherwise.
  @usableFromInline let owner: UInt
  /// The chain that reads see under this frame; unused by `operation` frames.
  @usableFromInline let head: Unmanaged<Node>?
  /// For `update` frames, the task that runs the closure (`currentTask`): a task started with
  /// `Task.immediate` inside the closure runs on this thread under this frame, and must not see
  /// the values being built.
  @usableFromInline let task: UInt
  /// For `reading` frames, the key being created, if any.
  @usableFromInline let creating: (any InjectionKey.Type)?
  @usableFromInline let previous: UnsafeMutableRawPointer?

  @inlinable
  init(
    _ kind: Kind,
    owner: UInt = 0,
    head: Node? = nil,
    task: UInt = 0,
    creating: (any InjectionKey.Type)? = nil
  ) {
    self.kind = kind
    self.owner = owner
    self.task = task
    if let head { self.head = Unmanaged.passUnretained(head) } else { self.head = nil }
    self.creating = creating
    self.previous = injection_context_get()
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
    return try withUnsafeMutablePointer(to: &frame) { (pointer) throws(Failure) -> Result in
      injection_context_set(pointer)
      defer { injection_context_set(pointer.pointee.previous) }
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
      with(ContextFrame(.reading, owner: cell, head: head, creating: key), body)
    }
  }

  /// An identity of the task running this code, or 0 outside any task.
  ///
  /// Only compared, never used to reach the task.
  @inlinable
  static var currentTask: UInt {
    // An optional task is one word, 0 for none; the cast reads it without retaining the task.
    withUnsafeCurrentTask { unsafeBitCast($0, to: UInt.self) }
  }

  /// The frame below this one.
  var below: UnsafeMutablePointer<ContextFrame>? {
    previous?.assumingMemoryBound(to: ContextFrame.self)
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
