public import CInjectionSupport

// Which chain the code running now sees: the task's values, or those a frame or a marker shows.

extension InjectedValues {
  /// The task-local that holds the current task's overrides, the head of its chain. Async
  /// bindings go through it; reads (`taskHead`) and synchronous bindings reach it through its
  /// published address (`taskHeadKey`).
  @usableFromInline
  static let taskHeadLocal = TaskLocal<TaskHead>(wrappedValue: TaskHead(nil))

  /// `taskHeadLocal`, reached through its address, which the first read or synchronous binding
  /// publishes in a C global (`injection_task_head_local_get`), and used without retaining it.
  ///
  /// A `static let` is reached through an accessor that calls `swift_once` on every use on Linux
  /// (16 instructions a read, callgrind); the published address is one load. Unretained, because
  /// unoptimized builds would otherwise retain and release this one object on every read, and
  /// its reference count, shared by every thread, made threads of a debug build wait for each
  /// other.
  @inlinable @inline(__always)
  static var taskHeadKey: Unmanaged<TaskLocal<TaskHead>> {
    Unmanaged.fromOpaque(
      UnsafeRawPointer(bitPattern: injection_task_head_local_get()).unsafelyUnwrapped
    )
  }

  /// The current task's overrides: the head of its chain.
  @inlinable @inline(__always)
  static var taskHead: Node? { taskHeadKey._withUnsafeGuaranteedRef { $0.get().node } }

  /// The head of the values a read sees here: the task's, unless this thread runs an update
  /// closure, creates a default, or probes an accessor (see `ContextFrame`).
  @inlinable @inline(__always)
  static var _visibleHead: Node? {
    if let frame = ContextFrame.top { return head(seenIn: frame) }
    return taskHead
  }

  /// `_visibleHead` while `frame` is this thread's innermost frame.
  @usableFromInline
  static func head(seenIn frame: UnsafeMutablePointer<ContextFrame>) -> Node? {
    switch frame.pointee.kind {
    case .update:
      if let values = frame.pointee.updateValues() { return values.pointee.head }
      return taskHead
    case .reading, .probe: return frame.pointee.head?.takeUnretainedValue()
    case .operation: return taskHead
    }
  }

  /// The visible head, with an asynchronous update's marker resolved: the values being built for
  /// the task that builds them, the values around them for every other task.
  @inlinable
  static var resolvedHead: Node? {
    let head = _visibleHead
    if let head, head.kind == .marker { return resolvingMarker(head) }
    return head
  }

  /// The values that the update closure running in this task builds, if the current code is
  /// that closure (not a default it creates, a probe, or a nested operation).
  static var valuesBeingBuilt: UnsafeMutablePointer<InjectedValues>? {
    if let frame = ContextFrame.top {
      switch frame.pointee.kind {
      case .update: if let values = frame.pointee.updateValues() { return values }
      case .operation: break
      case .reading, .probe: return nil
      }
    }
    return UpdateMarker.building(taskHead)?.values
  }

  @usableFromInline
  static func resolvingMarker(_ head: Node) -> Node? {
    let marker = unsafeDowncast(head, to: UpdateMarker.self)  // the only node of its kind
    return marker.valuesOfCurrentTask?.pointee.head ?? marker.next
  }
}

/// The value of `InjectedValues.taskHeadLocal`: the head of the current task's chain.
///
/// A struct of this module rather than `Node?`: the runtime copies and destroys a task-local's
/// value through its type's value witnesses, and this type's are a retain and a release, where an
/// optional's go through the runtime's generic enum witnesses (callgrind: 31 instructions fewer
/// for a default read, 57 for an overridden one, 72 for a scope entry).
@usableFromInline
struct TaskHead: Sendable {
  @usableFromInline let node: Node?

  @inlinable
  init(_ node: Node?) { self.node = node }
}

/// Publishes the address of `InjectedValues.taskHeadLocal`, which lives as long as the process,
/// for `injection_task_head_local_get`, and returns it.
///
/// `@usableFromInline` for its symbol: reads are inlined into other modules, and the C function
/// they inline calls this one, so the symbol must be exported from the library when it is
/// linked dynamically (an internal function's symbol is hidden).
@usableFromInline
@_cdecl("injection_task_head_local_publish")
func publishTaskHeadLocal() -> UInt {
  let address = UInt(bitPattern: Unmanaged.passUnretained(InjectedValues.taskHeadLocal).toOpaque())
  injection_task_head_local_store(address)
  return address
}
