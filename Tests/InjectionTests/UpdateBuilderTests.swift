import CInjectionSupport
import Testing

@testable import Injection

// The spare builder that each thread keeps between synchronous update closures, and its release
// when the thread exits.

@Suite("A thread's spare update builder")
struct UpdateBuilderTests {
  /// What a thread saw of its spare, for the test that joins it.
  private final class Observed: @unchecked Sendable {
    // Safe: written by the observed thread only, read after it was joined.
    weak var spare: UpdateBuilder?
    var reused = false
  }

  /// The current thread's spare, left in place; `nil` if it has none.
  private static func currentSpare() -> UpdateBuilder? {
    guard let spare = injection_spare_builder_take() else { return nil }
    defer { #expect(injection_spare_builder_put(spare) == 1) }
    return Unmanaged<UpdateBuilder>.fromOpaque(spare).takeUnretainedValue()
  }

  @Test("A thread reuses its spare, and releases it when it exits")
  func spareIsReusedAndReleasedAtThreadExit() {
    let observed = Observed()
    let thread = startThread {
      // Identities, not references: a reference would keep the builder from being reused.
      withInjectedValues {
        $0.count = 1
      } operation: {
      }
      let first = Self.currentSpare().map(ObjectIdentifier.init)
      withInjectedValues {
        $0.count = 2
      } operation: {
      }
      observed.spare = Self.currentSpare()
      observed.reused = first != nil && first == observed.spare.map(ObjectIdentifier.init)
    }
    joinOnThisThread([thread])
    #expect(observed.reused)
    #expect(observed.spare == nil, "the exited thread's spare builder is still alive")
  }

  @Test("A builder that a copy of $0 outlives is not kept as the spare")
  func builderWithCopiesIsNotKept() {
    let observed = Observed()
    let thread = startThread {
      withInjectedValues {
        $0.count = 1
      } operation: {
      }
      let hadSpare = Self.currentSpare() != nil
      var copy = InjectedValues.current
      withInjectedValues {
        $0.count = 3
        copy = $0
      } operation: {
      }
      // The closure's builder, which `copy` still refers to, was sealed; the spare is another.
      observed.reused = Self.currentSpare() == nil && copy[CountKey.self] == 3 && hadSpare
    }
    joinOnThisThread([thread])
    #expect(observed.reused)
  }
}
