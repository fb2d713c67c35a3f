import Dispatch
import Testing

@testable import Injection

private struct OpenScopeGlobalKey: InjectionKey {
  static let currentValue = "default"
}

extension InjectedValues {
  fileprivate var openScopeGlobal: String {
    get { self[OpenScopeGlobalKey.self] }
    set { self[OpenScopeGlobalKey.self] = newValue }
  }
}

/// Keys that the update-closure tests set globally on purpose, one pair per test: no other test
/// reads them, so tests running in parallel never see those global values.
private struct NestedOperationWriteKey: InjectionKey {
  static let currentValue = "default"
}

private struct ImmediateTaskWriteKey: InjectionKey {
  static let currentValue = "default"
}

private struct DispatchWriteKey: InjectionKey {
  static let currentValue = "default"
}

/// Written globally from inside an asynchronous update closure, by code that is not the closure.
private struct AsyncNestedWriteKey: InjectionKey {
  static let currentValue = "default"
}

private struct AsyncDispatchWriteKey: InjectionKey {
  static let currentValue = "default"
}

private struct KeyPathWriteInUpdateKey: InjectionKey {
  static let currentValue = "default"
}

extension InjectedValues {
  fileprivate var nestedOperationWrite: String {
    get { self[NestedOperationWriteKey.self] }
    set { self[NestedOperationWriteKey.self] = newValue }
  }

  fileprivate var seedNestedOperationWrite: String {
    get { Self[NestedOperationWriteKey.self] }
    set { Self[NestedOperationWriteKey.self] = newValue }
  }

  fileprivate var keyPathWriteInUpdate: String {
    get { self[KeyPathWriteInUpdateKey.self] }
    set { self[KeyPathWriteInUpdateKey.self] = newValue }
  }
}

private struct UpdateFailed: Error, Equatable {}
private struct OperationFailed: Error, Equatable {}

/// An actor that uses its own state inside an async scope.
private actor Tally {
  private(set) var total = 0

  func addInjectedCount() async {
    await withInjectedValues {
      $0.count = 5
    } operation: {
      total += InjectedValues[\.count]  // actor-isolated state, no `await` needed
      await Task.yield()
      total += InjectedValues[\.count]
    }
  }
}

@MainActor
private final class GreetingModel {
  @Injected(\.greeting) var greeting
  var text = ""

  func load() { text = greeting.greet("model") }
}

@Suite("withInjectedValues")
struct WithInjectedValuesTests {
  // MARK: - Rule 2: scopes layer per key

  @Test("An inner scope that overrides one key still sees the outer scope's other keys")
  func scopesLayerPerKey() {
    withInjectedValues {
      $0.count = 1
      $0.name = "outer"
    } operation: {
      withInjectedValues {
        $0.count = 2
      } operation: {
        #expect(InjectedValues[\.count] == 2)
        #expect(InjectedValues[\.name] == "outer")
      }
      #expect(InjectedValues[\.count] == 1)
    }
  }

  @Test("The update closure starts from the values visible at that point")
  func updateStartsFromVisibleValues() {
    withInjectedValues {
      $0.count += 1
    } operation: {
      #expect(InjectedValues[\.count] == 1)
      withInjectedValues {
        $0.count += 1
      } operation: {
        withInjectedValues {
          $0.count *= 10
        } operation: {
          #expect(InjectedValues[\.count] == 20)
        }
      }
    }
  }

  // MARK: - Update closures: one rule for both accessor styles

  @Test(
    "Every read in an update closure sees the values being built; keys not set yet show the enclosing scope",
    arguments: AccessorStyle.allCases
  )
  func readsInUpdateClosureSeeValuesBeingBuilt(style: AccessorStyle) {
    withInjectedValues {
      $0[keyPath: style.other] = "outer"
    } operation: {
      withInjectedValues { values in
        let reader = StyledReader()
        #expect(values[keyPath: style.styled] == "default")
        #expect(InjectedValues[style.styled] == "default")
        values[keyPath: style.styled] = "built"
        #expect(values[keyPath: style.styled] == "built")
        #expect(InjectedValues[style.styled] == "built")
        #expect(InjectedValues.current[keyPath: style.styled] == "built")
        #expect(InjectedValues[StyledKey.self] == "built")
        #expect(reader.styled(style) == "built")
        #expect(
          InjectedValues[style.other] == "outer",
          "a key not set yet shows the enclosing scope"
        )
      } operation: {
        #expect(InjectedValues[style.styled] == "built")
        #expect(InjectedValues[style.other] == "outer")
      }
    }
  }

  @Test(
    "An asynchronous update closure follows the same rule, across suspensions",
    arguments: AccessorStyle.allCases
  )
  func asynchronousUpdateClosureFollowsTheSameRule(style: AccessorStyle) async throws {
    let values = try await withInjectedValues {
      $0[keyPath: style.other] = "outer"
    } operation: {
      try await InjectedValues._updatingAsynchronously(fileID: #fileID, line: #line) { values in
        values[keyPath: style.styled] = "built"
        await Task.yield()
        #expect(values[keyPath: style.styled] == "built")
        #expect(InjectedValues[style.styled] == "built")
        #expect(InjectedValues.current[keyPath: style.styled] == "built")
        #expect(StyledReader().styled(style) == "built")
        #expect(InjectedValues[style.other] == "outer")
        values[keyPath: style.styled] += "!"
        await Task.yield()
      }
    }
    withInjectedValues(values) {
      #expect(InjectedValues[style.styled] == "built!")
      #expect(InjectedValues[style.other] == "outer")
    }
    #expect(InjectedValues[style.styled] == "default")
  }

  @Test(
    "An asynchronous update closure: $0 = snapshot, writes through $0 from nested scopes, and code that is not the closure"
  )
  func asynchronousUpdateClosureWrites() async throws {
    defer {
      removeGlobal(AsyncNestedWriteKey.self)
      removeGlobal(AsyncDispatchWriteKey.self)
    }
    let snapshot = await withInjectedValues {
      $0.instanceStyled = "from snapshot"
    } operation: {
      InjectedValues.current
    }
    let seen = Locked<[String]>([])
    let values = try await withInjectedValues {
      $0.instanceOther = "enclosing"
    } operation: {
      try await InjectedValues._updatingAsynchronously(fileID: #fileID, line: #line) { outer in
        outer = snapshot
        await Task.yield()
        #expect(outer.instanceStyled == "from snapshot", "a read of $0 itself sees the snapshot")
        #expect(InjectedValues[\.seedStyled] == "default", "other reads see the values being built")
        outer.seedOther = "written seed-style after the snapshot"
        #expect(InjectedValues[\.seedOther] == "written seed-style after the snapshot")
        await withInjectedValues { _ in
          outer.instanceStyled = "from a nested update closure"
        } operation: {
          outer.count = 7  // from a nested scope's operation
          InjectedValues[AsyncNestedWriteKey.self] = "global, from a nested operation"
        }
        // Another task started here sees the enclosing scope, not the values being built.
        let fromChild = await Task { InjectedValues[\.instanceStyled] }.value
        seen.withLock { $0.append(fromChild) }
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
          seen.withLock { $0.append(InjectedValues[\.instanceStyled]) }
          InjectedValues[AsyncDispatchWriteKey.self] = "global, from GCD"
          done.signal()
        }
        waitOnThisThread(done)
      }
    }
    withInjectedValues(values) {
      #expect(InjectedValues[\.instanceStyled] == "from a nested update closure")
      #expect(InjectedValues[\.instanceOther] == "written seed-style after the snapshot")
      #expect(InjectedValues[\.count] == 7)
      #expect(InjectedValues.current.source(of: AsyncNestedWriteKey.self) == .global)
    }
    #expect(seen.withLock { $0 } == ["default", "default"])
    #expect(InjectedValues[AsyncNestedWriteKey.self] == "global, from a nested operation")
    #expect(InjectedValues[AsyncDispatchWriteKey.self] == "global, from GCD")
    #expect(InjectedValues[\.instanceStyled] == "default")
  }

  @Test(
    "After $0 = snapshot, $0 holds the snapshot, other reads see the values being built, and seed-style writes land on top"
  )
  func assigningSnapshotInUpdateClosure() {
    let snapshot = withInjectedValues {
      $0.instanceStyled = "from snapshot"
      $0.instanceOther = "other from snapshot"
    } operation: {
      InjectedValues.current
    }
    withInjectedValues {
      $0.count = 5
    } operation: {
      withInjectedValues {
        $0 = snapshot
        // A read of `$0` itself sees the snapshot.
        #expect($0.instanceStyled == "from snapshot")
        #expect($0[StyledKey.self] == "from snapshot")
        // Every other read sees the values being built, which still start from the enclosing
        // scope: a seed-style getter, the static subscript, `current`.
        #expect($0.seedStyled == "default")
        #expect(InjectedValues[\.seedStyled] == "default")
        #expect(InjectedValues[\.count] == 5)
        #expect(InjectedValues.current.count == 5)
        // A seed-style write goes into the values being built...
        $0.seedOther = "written seed-style"
        #expect(InjectedValues[\.seedOther] == "written seed-style")
        // ...and reaches `$0`'s values only when the closure returns.
        #expect($0.instanceOther == "other from snapshot")
      } operation: {
        #expect(InjectedValues[\.instanceStyled] == "from snapshot")
        #expect(InjectedValues[\.instanceOther] == "written seed-style")
        #expect(InjectedValues[\.count] == 0, "the snapshot replaced the enclosing values")
      }
    }
  }

  @Test("A copy of $0 taken in the update closure refers to the values being built")
  func copyOfDollarZeroRefersToTheValuesBeingBuilt() {
    var kept: InjectedValues?
    withInjectedValues {
      let copy = $0
      $0.instanceStyled = "written after the copy"
      #expect(copy.instanceStyled == "written after the copy", "the copy sees later writes")
      var written = copy
      written.instanceOther = "written through a copy"
      #expect($0.instanceOther == "written through a copy", "a write to a copy is the closure's")
      kept = copy
    } operation: {
      #expect(InjectedValues[\.instanceOther] == "written through a copy")
      // While the scope runs, a copy sees the values the closure built.
      #expect(kept?.instanceStyled == "written after the copy")
      var detached = kept!
      detached.instanceStyled = "changed later"
      #expect(kept?.instanceStyled == "written after the copy", "a later write makes its own copy")
      #expect(detached.instanceOther == "written through a copy")
    }
    // Once no scope or snapshot holds the values built, a copy sees the values around the closure.
    #expect(kept?.instanceStyled == "default")
    #expect(InjectedValues[\.instanceStyled] == "default")
  }

  @Test("A write through an outer update closure's $0 lands in that closure's scope")
  func outerArgumentWritesLandInTheirScope() {
    withInjectedValues { outer in
      withInjectedValues { _ in
        outer.instanceStyled = "from the inner update closure"
      } operation: {
        outer.instanceOther = "from the inner operation"
      }
    } operation: {
      #expect(InjectedValues[\.instanceStyled] == "from the inner update closure")
      #expect(InjectedValues[\.instanceOther] == "from the inner operation")
    }
  }

  @Test(
    "A seed-style setter called on an outer $0 writes into the innermost update closure of the task"
  )
  func seedStyleSetterOnOuterArgument() {
    withInjectedValues { outer in
      withInjectedValues { _ in
        // The setter cannot tell which value it was called on: it writes into the innermost
        // update closure this task runs, as `Docs/Rules.md` says.
        outer.seedStyled = "seed-style, inner closure running"
      } operation: {
        #expect(InjectedValues[\.instanceStyled] == "seed-style, inner closure running")
      }
    } operation: {
      #expect(InjectedValues[\.instanceStyled] == "default")
    }
  }

  @Test(
    "In a nested scope's operation, InjectedValues[\\.x] = v and Self[Key.self] = v set the global value"
  )
  func writesFromNestedOperationAreGlobal() {
    defer {
      removeGlobal(NestedOperationWriteKey.self)
      removeGlobal(KeyPathWriteInUpdateKey.self)
    }
    withInjectedValues { outer in
      withInjectedValues {
        $0.count = 1
      } operation: {
        InjectedValues[NestedOperationWriteKey.self] = "global, from an operation"
        outer.instanceStyled = "still lands in the outer scope"
      }
      InjectedValues[\.keyPathWriteInUpdate] = "global, from an update closure"
      #expect(outer.nestedOperationWrite == "global, from an operation")
    } operation: {
      #expect(InjectedValues[\.instanceStyled] == "still lands in the outer scope")
    }
    #expect(InjectedValues[\.nestedOperationWrite] == "global, from an operation")
    #expect(InjectedValues[\.seedNestedOperationWrite] == "global, from an operation")
    #expect(InjectedValues[\.keyPathWriteInUpdate] == "global, from an update closure")
    #expect(InjectedValues[\.instanceStyled] == "default")
  }

  @Test("A GCD block started in an update closure never reads or writes the values being built")
  func dispatchInUpdateClosureSeesNothingBuilt() {
    defer { removeGlobal(DispatchWriteKey.self) }
    let seen = Locked<String?>(nil)
    withInjectedValues {
      $0.instanceStyled = "being built"
      let done = DispatchSemaphore(value: 0)
      DispatchQueue.global().async {
        seen.withLock { $0 = InjectedValues[\.instanceStyled] }
        InjectedValues[DispatchWriteKey.self] = "from GCD"
        done.signal()
      }
      done.wait()
      #expect($0[DispatchWriteKey.self] == "from GCD", "the block's write went global")
    } operation: {
      #expect(InjectedValues.current.source(of: DispatchWriteKey.self) == .global)
    }
    #expect(seen.withLock { $0 } == "default")
  }

  #if compiler(>=6.2)
    @Test(
      "A task started with Task.immediate in an update closure never reads or writes its values"
    )
    func immediateTaskInUpdateClosureSeesNothingBuilt() async throws {
      guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) else { return }
      defer { removeGlobal(ImmediateTaskWriteKey.self) }
      var task: Task<String, Never>?
      await withInjectedValues {
        $0.instanceOther = "enclosing"
      } operation: {
        withInjectedValues {
          $0.instanceStyled = "being built"
          task = Task.immediate {
            // Runs here, on this thread, before the update closure goes on.
            let seen = InjectedValues[\.instanceStyled] + ", " + InjectedValues[\.instanceOther]
            InjectedValues[ImmediateTaskWriteKey.self] = "from the immediate task"
            return seen
          }
          #expect($0.instanceStyled == "being built")
          #expect(InjectedValues.current.source(of: ImmediateTaskWriteKey.self) == .global)
        } operation: {
          #expect(InjectedValues[\.instanceStyled] == "being built")
        }
      }
      let seen = try #require(await task?.value)
      #expect(
        seen == "default, enclosing",
        "the task sees the enclosing scope, not the values being built"
      )
      #expect(InjectedValues[ImmediateTaskWriteKey.self] == "from the immediate task")
    }
  #endif

  // MARK: - Rule 3: propagation

  @Test("Child tasks in a task group inherit the scope")
  func taskGroupInherits() async {
    let seen = await withInjectedValues {
      $0.name = "group"
    } operation: {
      await withTaskGroup(of: String.self) { group in
        for _ in 0..<8 { group.addTask { InjectedValues[\.name] } }
        return await group.reduce(into: []) { $0.append($1) }
      }
    }
    #expect(seen == Array(repeating: "group", count: 8))
  }

  @Test("async let inherits the scope")
  func asyncLetInherits() async {
    let seen = await withInjectedValues {
      $0.name = "async let"
    } operation: {
      async let child = InjectedValues[\.name]
      return await child
    }
    #expect(seen == "async let")
  }

  @Test("Task {} inherits the scope, even when it outlives it")
  func unstructuredTaskInherits() async {
    let task = await withInjectedValues {
      $0.name = "task"
    } operation: {
      Task {
        await Task.yield()
        return InjectedValues[\.name]
      }
    }
    #expect(await task.value == "task")
  }

  @Test("Task.detached does not inherit the scope")
  func detachedDoesNotInherit() async {
    let seen = await withInjectedValues {
      $0.name = "scoped"
    } operation: {
      await Task.detached { InjectedValues[\.name] }.value
    }
    #expect(seen == "default")
  }

  @Test("A GCD block does not inherit the scope; it re-enters a snapshot to see it")
  func dispatchDoesNotInherit() async {
    let (plain, reentered) = await withInjectedValues {
      $0.name = "scoped"
    } operation: {
      let snapshot = InjectedValues.current
      return await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
          let plain = InjectedValues[\.name]
          let reentered = withInjectedValues(snapshot) { InjectedValues[\.name] }
          continuation.resume(returning: (plain, reentered))
        }
      }
    }
    #expect(plain == "default")
    #expect(reentered == "scoped")
  }

  @Test("A detached task re-enters a snapshot, sync and async")
  func detachedReentersSnapshot() async {
    let snapshot = await withInjectedValues {
      $0.count = 42
    } operation: {
      InjectedValues.current
    }
    let seen = await Task.detached {
      let sync = withInjectedValues(snapshot) { InjectedValues[\.count] }
      let async = await withInjectedValues(snapshot) {
        await Task.yield()
        return InjectedValues[\.count]
      }
      return [sync, async]
    }.value
    #expect(seen == [42, 42])
  }

  // MARK: - Rule 4: global changes

  @Test("A global change is visible at once inside scopes that are already open")
  func globalChangeVisibleInOpenScope() async {
    defer { removeGlobal(OpenScopeGlobalKey.self) }
    let (changed, proceed) = (AsyncGate(), AsyncGate())
    async let observed: String = withInjectedValues {
      $0.count = 1
    } operation: {
      await changed.wait()
      let value = InjectedValues[\.openScopeGlobal]
      await proceed.open()
      return value
    }
    InjectedValues[\.openScopeGlobal] = "changed while open"
    await changed.open()
    await proceed.wait()
    #expect(await observed == "changed while open")
  }

  // MARK: - Rule 7: ending a scope

  @Test("An error thrown by the update closure propagates and no scope is entered")
  func updateErrorPropagates() {
    var ranOperation = false
    #expect(throws: UpdateFailed.self) {
      try withInjectedValues { _ throws(UpdateFailed) in
        throw UpdateFailed()
      } operation: { () throws(UpdateFailed) in
        ranOperation = true
      }
    }
    #expect(!ranOperation)
    #expect(InjectedValues[\.count] == 0)
  }

  @Test("An error thrown by the operation propagates with its type, and the scope ends")
  func operationErrorPropagates() async {
    do {
      // Typed throws: both closures name the error type.
      try await withInjectedValues { (values: inout InjectedValues) throws(OperationFailed) in
        values.count = 9
      } operation: { () throws(OperationFailed) in
        throw OperationFailed()
      }
      Issue.record("the operation's error was swallowed")
    } catch {
      #expect(error == OperationFailed())  // `error` is typed `OperationFailed`
    }
    await #expect(throws: OperationFailed.self) {
      try await withInjectedValues {
        $0.count = 9
      } operation: {
        await Task.yield()
        throw OperationFailed()
      }
    }
    #expect(InjectedValues[\.count] == 0)
  }

  @Test("Cancellation passes through a scope")
  func cancellationPassesThrough() async {
    let task = Task {
      try await withInjectedValues {
        $0.count = 1
      } operation: {
        try await Task.sleep(nanoseconds: 60_000_000_000)
        return InjectedValues[\.count]
      }
    }
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }

    let seenCancelled = await Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return withInjectedValues {
        $0.count = 1
      } operation: {
        Task.isCancelled
      }
    }.value
    #expect(seenCancelled)
  }

  @Test("An override is released when the last scope holding it ends")
  func overrideReleasedAfterScope() {
    weak var weakService: Service?
    var snapshot: InjectedValues?
    do {
      let service = Service(id: 1)
      weakService = service
      withInjectedValues {
        $0.service = service
      } operation: {
        #expect(InjectedValues[\.service].id == 1)
        snapshot = InjectedValues.current
      }
    }
    #expect(weakService != nil, "the snapshot still holds the override")
    #expect(snapshot?.service.id == 1)
    snapshot = nil
    #expect(weakService == nil)
  }

  // MARK: - Hosts

  @Test("An actor can use its own state inside an async operation")
  func actorUsesOwnStateInOperation() async {
    let tally = Tally()
    await tally.addInjectedCount()
    #expect(await tally.total == 10)
  }

  @Test("A @MainActor model reads @Injected inside a scope")
  @MainActor
  func mainActorModel() async {
    let model = GreetingModel()
    await withInjectedValues {
      $0.greeting = MockGreeting(word: "Hey")
    } operation: {
      model.load()
    }
    #expect(model.text == "Hey, model")
    model.load()
    #expect(model.text == "Hello, model")
  }

  @Test("A synchronous scope works inside async code")
  func syncScopeInAsyncContext() async {
    let value = await withInjectedValues {
      $0.count = 3
    } operation: {
      InjectedValues[\.count]
    }
    #expect(value == 3)
  }

  // MARK: - Stress

  @Test("10,000 concurrent scopes each see only their own override")
  func tenThousandConcurrentScopes() async {
    let crossTalk = await withTaskGroup(of: Int.self) { group in
      for index in 0..<10_000 {
        group.addTask {
          await withInjectedValues {
            $0.count = index
            $0.name = "task \(index)"
          } operation: {
            await Task.yield()
            let count = InjectedValues[\.count]
            let name = InjectedValues[\.name]
            return count == index && name == "task \(index)" ? 0 : 1
          }
        }
      }
      return await group.reduce(0, +)
    }
    #expect(crossTalk == 0)
  }
}

/// A one-shot gate that tasks can wait on.
actor AsyncGate {
  private var isOpen = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  func open() {
    isOpen = true
    for waiter in waiters { waiter.resume() }
    waiters = []
  }

  func wait() async {
    if isOpen { return }
    await withCheckedContinuation { waiters.append($0) }
  }
}
