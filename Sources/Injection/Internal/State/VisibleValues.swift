// Which chain the code running now sees: the task's values, or those a frame shows.

extension InjectedValues {
  /// The task-local that holds the current task's overrides, the head of its chain.
  @usableFromInline
  static let taskHeadLocal = TaskLocal<TaskHead>(wrappedValue: TaskHead(nil))

  /// The current task's overrides: the head of its chain.
  @inlinable @inline(__always)
  static var taskHead: Node? { taskHeadLocal.get().node }

  /// The head of the values a read sees here: the task's, unless this thread runs an update
  /// closure, creates a default or a value built on first use, or probes an accessor (see
  /// `ContextFrame`).
  ///
  /// Inside an update closure this is its `UpdateBuilder`, which a lookup resolves.
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
    case .update, .reading, .probe: frame.pointee.head?.takeUnretainedValue()
    }
  }

  /// The visible head as a chain to start from or to bind: the values an update closure has
  /// built so far, for the closure's own code; the values around it for everyone else.
  @inlinable
  static var resolvedHead: Node? {
    guard let head = _visibleHead else { return nil }
    return head.kind == .builder ? UpdateBuilder.resolving(head) : head
  }

  /// The update closure that the current code runs, if any: the builder that seed-style setters
  /// write into and `current` hands out.
  @usableFromInline
  static var runningBuilder: UpdateBuilder? {
    guard let head = _visibleHead, head.kind == .builder else { return nil }
    let builder = unsafeDowncast(head, to: UpdateBuilder.self)  // the only node of its kind
    return builder.isOpenForCurrentCode ? builder : nil
  }
}

/// The value of `InjectedValues.taskHeadLocal`: the head of the current task's chain.
///
/// A struct of this module rather than `Node?`, because the runtime copies a task-local's value
/// through its type's value witnesses: this type's are a plain retain and release, an optional's
/// go through the runtime's generic enum witnesses.
@usableFromInline
struct TaskHead: Sendable {
  @usableFromInline let node: Node?

  @inlinable
  init(_ node: Node?) { self.node = node }
}
