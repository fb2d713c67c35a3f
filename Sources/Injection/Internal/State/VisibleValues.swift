// Which chain the code running now sees: the task's values, or those a frame shows.

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
