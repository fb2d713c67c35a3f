// An actor that reads a main-actor service. With a main-actor key, `@Injected(\.badgeStore)` in
// an actor fails: "main actor-isolated default value in a actor-isolated context". Code off
// the main actor reads only nonisolated keys: the key and the accessor say `nonisolated`, and
// the class gets a `nonisolated init()` (or a `nonisolated static let shared`), so that the
// default can be created on whichever thread reads the key first.
import Injection

final class BadgeStore {
  private(set) var count = 0

  // Before: init() {}
  nonisolated init() {}

  func increment() { count += 1 }
}

// Before: private struct BadgeStoreKey: InjectionKey {
nonisolated private struct BadgeStoreKey: InjectionKey {
  static let currentValue = BadgeStore()
}

// Before: extension InjectedValues {
nonisolated extension InjectedValues {
  var badgeStore: BadgeStore {
    get { self[BadgeStoreKey.self] }
    set { self[BadgeStoreKey.self] = newValue }
  }
}

actor NotificationInbox {
  @Injected(\.badgeStore) var badgeStore
  private var unread: [String] = []

  func receive(_ message: String) async {
    unread.append(message)
    await badgeStore.increment()  // the store's methods stay on the main actor
  }
}

/// A `nonisolated` type cannot hold `@Injected` ("'nonisolated' cannot be applied to mutable
/// stored properties"); it stores the wrapper as a `let` and calls it.
nonisolated struct BadgeReader {
  let badgeStore = Injected(\.badgeStore)

  func store() -> BadgeStore { badgeStore() }
}
