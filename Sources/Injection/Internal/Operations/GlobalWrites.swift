// Writes to the global values: through an accessor, by type outside an update closure, and
// removing them.

extension InjectedValues {
  /// Sets the global values of the keys that the setter behind `keyPath` writes.
  ///
  /// The setter runs on empty values, as an update closure that sees only global values and
  /// defaults, so a write through a nested key path (`\.config.timeout`) starts from the global
  /// value, never from a scope's override. What it writes is then published as global values.
  @usableFromInline
  static func setGlobal<Value>(
    _ value: Value,
    through keyPath: WritableKeyPath<InjectedValues, Value>
  ) {
    var start = InjectedValues()
    start.site = OverrideSite(.global, depth: 0)  // writes that are global values
    var builder = UpdateBuilder(starting: start, synchronous: true)
    var values = InjectedValues(builder: builder)
    let frame = ContextFrame(.update, builder: builder, task: ContextFrame.currentTask)
    ContextFrame.with(frame) { values[keyPath: keyPath] = value }
    let written = finishUpdate(&builder, final: &values)
    var boxes: [Node] = []
    written.forEachOwnBox { boxes.append($0) }
    for box in boxes.reversed() {
      guard let key = box.overrideKey else { continue }
      if box is LazyBox {
        fatalError(
          "Injection: the setter behind \(keyPath) declares \(key) with lazy(_:_:), but it was "
            + "called to set a global value, which is not built once per scope. Declare it in "
            + "the update closure of withInjectedValues or of a test trait instead."
        )
      }
      publishGlobal(box, of: key)
    }
  }

  /// What `read` returns when reads see only global values and defaults: where a write through
  /// a member (`InjectedValues[\.config].timeout = 5`) starts.
  @usableFromInline
  static func globalValue<Value>(_ read: () -> Value) -> Value {
    ContextFrame.reading(nil, creating: nil, read)
  }

  /// Removes the global values of `keys`, or of every key if `keys` is `nil`.
  static func resetGlobals(of keys: [any InjectionKey.Type]?) {
    guard let keys else {
      let removed = GlobalValues.publish { head in (nil, head) }
      withExtendedLifetime(removed) {}  // released here, outside every lock: it may run a deinit
      reportGlobalChange(of: nil, removed: true)
      return
    }
    for key in keys { publishGlobal(nil, of: key) }
  }

  /// Makes `box`, relinked into the global values' chain, the global value of `key` (or, with
  /// `nil`, removes it), releases the value it replaces outside every lock, and tells strict mode.
  static func publishGlobal(_ box: Node?, of key: any InjectionKey.Type) {
    let id = UInt(bitPattern: ObjectIdentifier(key))
    let replaced = GlobalValues.publish { head -> (head: Node?, removed: Node?) in
      // What the caller releases: the replaced box alone, not the nodes it linked to.
      let replaced = Node.find(id, from: head)?.takeUnretainedValue().relinked(to: nil)
      var values = InjectedValues(head: head)
      values.site = OverrideSite(.global, depth: 0)
      if let box {
        let (next, site) = values.startWrite(of: id)
        values.finishWrite(box.relinked(to: next, site: site))
      } else if replaced != nil, let edited = unlinking(id, from: head, layer: values.site!.layer) {
        values.head = edited
      }
      return (values.head, replaced)
    }
    withExtendedLifetime(replaced) {}  // released here, outside every lock: it may run a deinit
    reportGlobalChange(of: key, removed: box == nil)
  }

  /// Tells strict mode, if the current task runs under it, that a global value changed.
  static func reportGlobalChange(of key: (any InjectionKey.Type)?, removed: Bool) {
    taskHead?.observer?.globalValueChanged(key, removed: removed)
  }
}
