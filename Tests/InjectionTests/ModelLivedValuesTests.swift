import Testing

@testable import Injection

// Model-lived dependencies: an object keeps the values of the scope it was created in, the
// objects it creates inherit them, and a scope its caller enters still wins for its own keys.

/// A model that keeps the values of the scope it was created in, as Docs/Rules.md shows.
private final class StyledModel: Sendable {
  let style: AccessorStyle
  /// The values of the scope the model was created in.
  let values = InjectedValues.current

  init(_ style: AccessorStyle) { self.style = style }

  /// Both keys, read through the accessor style's key paths.
  func read() -> [String] {
    withInjectedValues(merging: values) {
      [InjectedValues[style.styled], InjectedValues[style.other]]
    }
  }

  /// Both keys, read through `@Injected` by an object created inside the work.
  func readThroughWrapper() -> String {
    withInjectedValues(merging: values) { StyledReader().styled(style) }
  }

  /// Both keys, read in a child task of asynchronous work.
  func readInChildTask() async -> [String] {
    await withInjectedValues(merging: values) { () async in
      let style = self.style
      return await Task { [InjectedValues[style.styled], InjectedValues[style.other]] }.value
    }
  }

  /// Both keys, read by the synchronous form from asynchronous work.
  func readFromAsynchronousWork() async -> [String] {
    await Task.yield()
    return withInjectedValues(merging: values) {
      [InjectedValues[style.styled], InjectedValues[style.other]]
    }
  }

  /// A model created by this one's work, as a parent creates a child.
  func makeChild() -> StyledModel {
    withInjectedValues(merging: values) { StyledModel(style) }
  }
}

/// Records the keys that strict mode reports as falling back.
private final class FallbackRecorder: InjectionFallbackObserver, @unchecked Sendable {
  // Safe: `keys` is only touched under `lock`.
  private let lock = Lock()
  private var keys: [String] = []

  func keyFellBack(_ key: any InjectionKey.Type, isGlobal: Bool) {
    lock.withLock { keys.append(String(describing: key)) }
  }

  func globalValueChanged(_ key: (any InjectionKey.Type)?, removed: Bool) {}

  var reported: [String] { lock.withLock { keys } }
}

@Suite("Model-lived values")
struct ModelLivedValuesTests {
  /// A model created in a scope that overrides both keys.
  private func modelInScope(_ style: AccessorStyle) -> StyledModel {
    withInjectedValues {
      $0[keyPath: style.styled] = "model"
      $0[keyPath: style.other] = "model other"
    } operation: {
      StyledModel(style)
    }
  }

  @Test(
    "A model keeps its creating scope's values after that scope ends",
    arguments: AccessorStyle.allCases
  )
  func parentKeepsItsScope(style: AccessorStyle) {
    let model = modelInScope(style)
    #expect(InjectedValues[style.styled] == "default")
    #expect(model.read() == ["model", "model other"])
    #expect(model.readThroughWrapper() == "model")
  }

  @Test("A model created by a model's work inherits its values", arguments: AccessorStyle.allCases)
  func childInherits(style: AccessorStyle) {
    let child = modelInScope(style).makeChild()
    #expect(child.read() == ["model", "model other"])
    #expect(child.makeChild().read() == ["model", "model other"])
  }

  @Test(
    "A scope the caller enters wins for the keys it overrides; the model supplies the rest",
    arguments: AccessorStyle.allCases
  )
  func callerWins(style: AccessorStyle) {
    let model = modelInScope(style)
    withInjectedValues {
      $0[keyPath: style.styled] = "caller"
    } operation: {
      #expect(model.read() == ["caller", "model other"])
      #expect(model.readThroughWrapper() == "caller")
      // A child created under the caller's scope takes the merged values.
      let child = model.makeChild()
      withInjectedValues {
        $0[keyPath: style.other] = "later caller"
      } operation: {
        #expect(child.read() == ["caller", "later caller"])
      }
    }
    #expect(model.read() == ["model", "model other"])
  }

  @Test(
    "Asynchronous work: child tasks, the synchronous form in async code, detached tasks",
    arguments: AccessorStyle.allCases
  )
  func asynchronousWork(style: AccessorStyle) async {
    let model = modelInScope(style)
    #expect(await model.readInChildTask() == ["model", "model other"])
    #expect(await model.readFromAsynchronousWork() == ["model", "model other"])
    await withInjectedValues {
      $0[keyPath: style.styled] = "caller"
    } operation: { () async in
      #expect(await model.readInChildTask() == ["caller", "model other"])
      #expect(await model.readFromAsynchronousWork() == ["caller", "model other"])
    }
    let detached = await Task.detached { await model.readInChildTask() }.value
    #expect(detached == ["model", "model other"])
  }

  @Test(
    "A model used in the scope that created it sees that scope, and inner scopes win",
    arguments: AccessorStyle.allCases
  )
  func usedInItsOwnScope(style: AccessorStyle) {
    withInjectedValues {
      $0[keyPath: style.styled] = "model"
    } operation: {
      let model = StyledModel(style)
      #expect(model.read() == ["model", "other default"])
      withInjectedValues {
        $0[keyPath: style.other] = "inner"
      } operation: {
        #expect(model.read() == ["model", "inner"])
      }
    }
  }

  @Test("Long chains on both sides, which are compacted, merge the same way")
  func longChains() {
    func nest(_ depth: Int, _ body: () -> Void) {
      if depth == 0 { return body() }
      withInjectedValues {
        $0.count = depth
      } operation: {
        nest(depth - 1, body)
      }
    }
    var model: StyledModel?
    nest(12) {
      model = withInjectedValues {
        $0.instanceStyled = "model"
      } operation: {
        StyledModel(.instance)
      }
    }
    let made = model!
    nest(10) {
      withInjectedValues {
        $0.instanceOther = "caller"
      } operation: {
        #expect(made.read() == ["model", "caller"])
        #expect(
          withInjectedValues(merging: InjectedValues.current) { InjectedValues[\.count] } == 1
        )
      }
    }
  }

  @Test("Strict mode: the caller's observer hears the fallbacks of the merged values")
  func callerObserverStays() {
    let recorder = FallbackRecorder()
    let model = withInjectedValues {
      $0.name = "model"
    } operation: {
      StyledModel(.instance)
    }
    withInjectedValues(InjectedValues.current._observed(by: recorder)) {
      withInjectedValues(merging: model.values) {
        #expect(InjectedValues[\.name] == "model")
        #expect(recorder.reported.isEmpty)
        _ = InjectedValues[\.scopeLabel]
      }
    }
    #expect(recorder.reported == ["ScopeLabelKey"])
  }

  @Test("$0 = .empty drops every override around the scope, and keeps strict mode on")
  func emptyResets() {
    let recorder = FallbackRecorder()
    withInjectedValues(InjectedValues.current._observed(by: recorder)) {
      withInjectedValues {
        $0.name = "outer"; $0.count = 3
      } operation: {
        withInjectedValues {
          $0 = .empty
          $0.count = 7
        } operation: {
          #expect(InjectedValues[\.count] == 7)
          #expect(InjectedValues[\.name] == "default")
        }
        #expect(InjectedValues[\.name] == "outer")
      }
    }
    #expect(recorder.reported == ["NameKey"])
    #expect(InjectedValues.empty.head == nil)
  }
}
