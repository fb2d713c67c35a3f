import Testing

@testable import Injection

// A scope's values that hold a copy of its own `$0` (directly, through `current`, inside a model
// or inside a lazy factory) are released when the last scope or snapshot holding them ends.

/// An object whose release the tests watch through a weak reference.
private final class Probe: Sendable {}

private struct ProbeKey: InjectionKey {
  static let currentValue: Probe? = nil
}

private struct HolderKey: InjectionKey {
  static let currentValue: InjectedValues? = nil
}

/// A model in the recipe of Rules.md: it keeps the values of the scope it was created in.
private final class HoldingModel: Sendable {
  let values = InjectedValues.current
}

private struct ModelKey: InjectionKey {
  static let currentValue: HoldingModel? = nil
}

private struct LazyNumberKey: InjectionKey {
  static let currentValue = 0
}

extension InjectedValues {
  fileprivate var probe: Probe? {
    get { self[ProbeKey.self] }
    set { self[ProbeKey.self] = newValue }
  }

  fileprivate var holder: InjectedValues? {
    get { self[HolderKey.self] }
    set { self[HolderKey.self] = newValue }
  }

  fileprivate var model: HoldingModel? {
    get { self[ModelKey.self] }
    set { self[ModelKey.self] = newValue }
  }

  fileprivate var lazyNumber: Int {
    get { self[LazyNumberKey.self] }
    set { self[LazyNumberKey.self] = newValue }
  }
}

/// The ways an update closure can store a copy of its own values in them.
enum CopyForm: String, CaseIterable, Sendable {
  case current, copyOfArgument, model, lazyFactory

  func store(in values: inout InjectedValues) {
    switch self {
    case .current: values.holder = InjectedValues.current
    case .copyOfArgument:
      let copy = values
      values.holder = copy
    case .model: values.model = HoldingModel()
    case .lazyFactory:
      let captured = InjectedValues.current
      values.lazy(\.lazyNumber) { captured.probe == nil ? 0 : 1 }
    }
  }
}

@Suite("Values that hold a copy of their own $0 are released")
struct CopiesOfValuesReleaseTests {
  @Test("A synchronous scope's values are released when it ends", arguments: CopyForm.allCases)
  func synchronousScope(form: CopyForm) {
    weak var released: Probe?
    withInjectedValues {
      let probe = Probe()
      released = probe
      $0.probe = probe
      form.store(in: &$0)
    } operation: {
      #expect(InjectedValues[\.probe] != nil)
      if form == .lazyFactory { #expect(InjectedValues[\.lazyNumber] == 1) }
    }
    #expect(released == nil, "the scope's values outlived it")
  }

  @Test("An asynchronous scope's values are released when it ends", arguments: CopyForm.allCases)
  func asynchronousScope(form: CopyForm) async {
    weak var released: Probe?
    await withInjectedValues {
      let probe = Probe()
      released = probe
      $0.probe = probe
      form.store(in: &$0)
    } operation: { () async in
      await Task.yield()
      #expect(InjectedValues[\.probe] != nil)
    }
    #expect(released == nil, "the scope's values outlived it")
  }

  @Test("A snapshot taken in the scope keeps them until it ends; the copy inside sees them")
  func snapshotKeepsThemAlive() {
    weak var released: Probe?
    var snapshot: InjectedValues? = withInjectedValues {
      let probe = Probe()
      released = probe
      $0.probe = probe
      $0.holder = InjectedValues.current
    } operation: {
      InjectedValues.current
    }
    #expect(released != nil, "a snapshot still holds the values")
    #expect(snapshot?.holder?.probe != nil, "the copy held in them sees them")
    snapshot = nil
    #expect(released == nil)
  }

  @Test("A copy that outlives every holder sees the values around its closure")
  func outlivingCopySeesTheValuesAround() {
    weak var released: Probe?
    let outer = Probe()
    var copy: InjectedValues?
    withInjectedValues {
      $0.probe = outer
    } operation: {
      withInjectedValues {
        let probe = Probe()
        released = probe
        $0.probe = probe
        copy = $0
      } operation: {
        #expect(copy?.probe === released, "while the scope runs, the copy sees its values")
      }
    }
    #expect(released == nil, "only the copy referred to the values, and it does not hold them")
    #expect(copy?.probe === outer, "the values around its closure")
  }
}
