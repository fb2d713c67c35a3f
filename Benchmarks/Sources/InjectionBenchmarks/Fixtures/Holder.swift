import Injection

/// An object that reads its dependencies through `@Injected`, as app code does.
///
/// The wrappers live in a class instance made by `makeHolder()`, so each read loads a stored
/// key path from the heap and applies it: nothing lets the optimizer fold it into a direct
/// accessor call.
final class Holder: Sendable {
  /// The wrappers. A property wrapper needs a `var`, so they sit in a struct held by a `let`,
  /// which keeps the holder `Sendable` and shareable across threads and tasks.
  struct Dependencies: Sendable {
    @Injected(\.service) var service
    @Injected(\.secondService) var secondService
  }

  let dependencies = Dependencies()
}

/// Creates a holder where the optimizer cannot see which key paths it stores.
@inline(never)
func makeHolder() -> Holder {
  Holder()
}

/// The object of the synchronous and asynchronous request cases (`RequestCases`): three
/// `@Injected` wrappers, one per dependency a request overrides. A type of its own, so that the
/// cases of `Holder` keep their layout.
final class RequestHolder: Sendable {
  struct Dependencies: Sendable {
    @Injected(\.service) var service
    @Injected(\.secondService) var secondService
    @Injected(\.thirdService) var thirdService
  }

  let dependencies = Dependencies()
}

@inline(never)
func makeRequestHolder() -> RequestHolder {
  RequestHolder()
}
