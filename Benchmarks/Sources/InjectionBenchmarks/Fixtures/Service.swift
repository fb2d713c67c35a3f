/// The dependency every case resolves: an existential, as app code declares its dependencies.
protocol Service: Sendable {
  /// A method that is never inlined, so each read is followed by a real call.
  func call() -> Int
}

/// The live implementation: a class, as most services are, so reads retain and release it.
final class LiveService: Service {
  let id: Int

  init(id: Int) { self.id = id }

  @inline(never)
  func call() -> Int { id }
}

/// A value-type implementation: reading it copies it, with no reference count to update.
///
/// Threads that read a shared class instance all update its reference count, so they contend
/// for one cache line whatever resolves the instance; this one isolates the resolution.
struct ValueService: Service {
  let id: Int

  @inline(never)
  func call() -> Int { id }
}

/// The instances the cases use; created once, so no case measures their allocation.
enum Services {
  /// The default of `ServiceKey`, and what the raw task-locals hold when unbound.
  static let live: any Service = LiveService(id: 1)
  /// What scopes bind as an override.
  static let mock: any Service = LiveService(id: 2)
  /// The value the static-let baseline reads.
  static let plain: any Service = LiveService(id: 3)
}
