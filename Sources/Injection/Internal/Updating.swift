extension InjectedValues {
  /// Runs an update closure and returns the values it built.
  ///
  /// The closure receives a proxy whose reads and writes go to a `ThreadContext`, which the
  /// static `Self[Key.self]` subscript finds too: instance-style and seed-style accessors then
  /// build the same values. The new values start from the current task's, one scope deeper.
  @usableFromInline
  static func _updating<Failure: Error>(
    with update: (inout InjectedValues) throws(Failure) -> Void,
    at site: OverrideSite
  ) throws(Failure) -> InjectedValues {
    var start = _storage.get()
    start.depth += 1
    let context = ThreadContext(.update(site: site), values: start)
    var proxy = InjectedValues()
    proxy.role = .updateProxy
    try ThreadContext.run(with: context) { () throws(Failure) in try update(&proxy) }
    // Assigning `$0` a whole snapshot replaces the values being built.
    return proxy.role === ValuesRole.updateProxy ? context.values : proxy
  }
}
