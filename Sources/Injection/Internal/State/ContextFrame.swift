public import CInjectionSupport

/// What the current thread is doing for the library, if anything: how a read or a write in
/// synchronous code finds values other than the task's own.
///
/// A frame lives on the stack of the function that pushes it, for one synchronous stretch of
/// code, and the thread's slot points to the innermost one; each links to the one it hides:
///
/// - `update`: an update closure runs; `builder` is its `UpdateBuilder`, which seed-style setters
///   write into and whose values the code of the closure reads.
/// - `reading`: a default or a value built on first use is being created; reads see `chain` (none
///   for a default, the declaring scope's chain for a `lazy` value), and `creating` is the key
///   that cycle detection checks.
/// - `probe`: an accessor runs only so that the library learns which keys it reads; `chain` is a
///   `ProbeNode`, and the keys read are recorded at `owner`.
/// - `operation`: a scope's operation runs inside one of the above; reads see the task's values
///   again and seed-style setters set global values.
///
/// Every field is trivial: what a frame refers to is kept alive by the function that pushed it,
/// for as long as the frame is pushed.
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
  /// For `reading` and `probe` frames, the chain that reads see.
  @usableFromInline let chain: Unmanaged<Node>?
  /// For `update` frames, the closure's builder.
  @usableFromInline let builder: Unmanaged<UpdateBuilder>?
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
    chain: Node? = nil,
    builder: UpdateBuilder? = nil,
    task: UInt = 0,
    creating: (any InjectionKey.Type)? = nil
  ) {
    self.kind = kind
    self.owner = owner
    self.chain = chain.map { Unmanaged.passUnretained($0) }
    self.builder = builder.map { Unmanaged.passUnretained($0) }
    self.task = task
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

  /// Runs `body` with a `reading` frame pushed: reads see the chain at `chain`. `cell` is the
  /// address of the cell of a value built on first use, 0 for a default.
  @inlinable
  static func reading<Result>(
    _ chain: Node?,
    creating key: (any InjectionKey.Type)?,
    cell: UInt = 0,
    _ body: () -> Result
  ) -> Result {
    withExtendedLifetime(chain) {
      with(ContextFrame(.reading, owner: cell, chain: chain, creating: key), body)
    }
  }

  /// An identity of the task running this code, or 0 outside any task. Only compared, never used
  /// to reach the task.
  @inlinable
  static var currentTask: UInt {
    // An optional task is one word, 0 for none; the cast reads it without retaining the task.
    withUnsafeCurrentTask { unsafeBitCast($0, to: UInt.self) }
  }

  /// The frame below this one.
  var below: UnsafeMutablePointer<ContextFrame>? {
    previous?.assumingMemoryBound(to: ContextFrame.self)
  }
}

// MARK: - Which chain the code running now sees: the task's values, or those a frame shows

extension InjectedValues {
  /// The task-local that holds the current task's values.
  @usableFromInline
  static let taskValues = TaskLocal<TaskValues>(wrappedValue: TaskValues(storage: nil))

  /// The chain of the current task's overrides.
  @inlinable @inline(__always)
  static var taskHead: Node? { chain(of: taskValues.get().storage) }

  /// The head of the values a read sees here: the task's, unless this thread runs an update
  /// closure, creates a default or a value built on first use, or probes an accessor (see
  /// `ContextFrame`). Inside an update closure, the values it has built so far.
  @inlinable @inline(__always)
  static var _visibleHead: Node? {
    if let frame = ContextFrame.top { return head(seenIn: frame) }
    return taskHead
  }

  /// `_visibleHead` while `frame` is this thread's innermost frame.
  @usableFromInline
  static func head(seenIn frame: UnsafeMutablePointer<ContextFrame>) -> Node? {
    switch frame.pointee.kind {
    case .update where frame.pointee.task != ContextFrame.currentTask, .operation: taskHead
    case .update: frame.pointee.builder?.takeUnretainedValue().chain
    case .reading, .probe: frame.pointee.chain?.takeUnretainedValue()
    }
  }

  /// The update closure that the current code runs, if any: the builder that seed-style setters
  /// write into and `current` hands out.
  @usableFromInline
  static var runningBuilder: UpdateBuilder? {
    var storage: (any AnyObject & Sendable)?
    switch ContextFrame.top?.pointee {
    case let frame? where frame.kind == .update && frame.task == ContextFrame.currentTask:
      storage = frame.builder?.takeUnretainedValue()
    case let frame? where frame.kind == .reading || frame.kind == .probe: return nil
    default: storage = taskValues.get().storage
    }
    guard isBuilder(storage) else { return nil }
    let builder = unsafeDowncast(storage.unsafelyUnwrapped, to: UpdateBuilder.self)
    return builder.isOpenForCurrentCode ? builder : nil
  }
}

/// The value of `InjectedValues.taskValues`: the chain of the current task's overrides (a
/// `Node`), or the builder of the asynchronous update closure it runs.
@usableFromInline
struct TaskValues: Sendable {
  @usableFromInline let storage: (any AnyObject & Sendable)?

  @inlinable
  init(storage: (any AnyObject & Sendable)?) { self.storage = storage }
}
