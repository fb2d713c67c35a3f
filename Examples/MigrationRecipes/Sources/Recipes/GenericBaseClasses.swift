// Subclasses of an app's own generic base class, such as one data source per Core Data entity.
// The compiler checks `Sendable` only for a class without a superclass, so `final` does not help
// a subclass: "'Sendable' class 'RoleStore' cannot inherit from another class". Either the base
// class says `@unchecked Sendable`, next to its lock, and each subclass restates it; or each
// store holds an instance of the base instead of inheriting from it, and the compiler checks
// the store.
import Foundation  // NSLock
import Injection

struct Role: Sendable, Equatable {
  let name: String
}

protocol RoleStoring: Sendable {
  func add(_ role: Role)
  func roles() -> [Role]
}

/// A stand-in for an app's generic Core Data base class (Linux has no Core Data): it keeps its
/// records in memory, behind a lock.
// Before: class RecordStore<Record> {
class RecordStore<Record: Sendable>: @unchecked Sendable {
  // Safe: `records` is read and written only while holding `lock`. Subclasses add only `let`s
  // of `Sendable` types.
  private let lock = NSLock()
  private var records: [Record] = []
  let entityName: String

  init(entityName: String) {
    self.entityName = entityName
  }

  func insert(_ record: Record) { lock.withLock { records.append(record) } }
  func fetchAll() -> [Record] { lock.withLock { records } }
}

// Route 1: inherit, and restate the unchecked conformance.
// Before: final class RoleStore: RecordStore<Role>, RoleStoring {
final class RoleStore: RecordStore<Role>, RoleStoring, @unchecked Sendable {
  init() { super.init(entityName: "Role") }

  func add(_ role: Role) { insert(role) }
  func roles() -> [Role] { fetchAll() }
}

// Route 2: hold a base instead. This class has no superclass, so the compiler checks it: a
// `var` added here would fail to compile. The one `@unchecked` stays next to the lock.
final class ComposedRoleStore: RoleStoring {
  private let records = RecordStore<Role>(entityName: "Role")

  func add(_ role: Role) { records.insert(role) }
  func roles() -> [Role] { records.fetchAll() }
}

private struct RoleStoreKey: InjectionKey {
  static let currentValue: any RoleStoring = RoleStore()
}

extension InjectedValues {
  var roleStore: any RoleStoring {
    get { self[RoleStoreKey.self] }
    set { self[RoleStoreKey.self] = newValue }
  }
}
