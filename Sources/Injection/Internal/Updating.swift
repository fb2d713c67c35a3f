extension InjectedValues {
  /// Runs an update closure and returns the values it built.
  ///
  /// The closure receives a proxy whose reads and writes go to an `UpdateContext`, which the
  /// static `Self[Key.self]` subscript finds too: instance-style and seed-style accessors then
  /// build the same values. The new values start from the current task's, one scope deeper.
  @inlinable
  static func _updating<Failure: Error>(
    with update: (inout InjectedValues) throws(Failure) -> Void,
    at site: OverrideSite
  ) throws(Failure) -> InjectedValues {
    var context = UpdateContext(values: _storage.get(), site: site, isProbe: false)
    context.values.depth += 1
    var proxy = InjectedValues()
    proxy.role = .updateProxy
    try withUnsafeMutablePointer(to: &context) { (pointer) throws(Failure) in
      try UpdateContext.run(with: pointer) { () throws(Failure) in try update(&proxy) }
    }
    // Assigning `$0` a whole snapshot replaces the values being built.
    var values = proxy.role === ValuesRole.updateProxy ? context.values : proxy
    values._indexIfNeeded()
    return values
  }
}
