import BenchmarkKeys
import BenchmarkShapes
import BenchmarkSupport
import Injection

/// Reads through `@Injected`, a seed-style accessor and `InjectedValues[\.x]`, from types of
/// another module (`BenchmarkShapes`, over the accessors of a third, `BenchmarkKeys`) in the
/// places app code puts them: a struct in a global
/// `let` of `main.swift`, a final class made by a function of that module, an actor, a
/// main-actor class, an element of an array of structs, and a generic `ShapeHolder<T>`.
/// Default and overridden reads each, all against a raw unbound task-local read; beside them, a
/// raw task-local read in each shape, which shows what the shape itself costs.
enum ShapeCases {
  static var all: [Benchmark] {
    [actorBaseline] + shapes.flatMap(cases(for:))
  }

  /// One shape: `loop(reader, iterations)` reads it `iterations` times.
  struct Shape {
    let id: String
    let title: String
    var baseline = BaselineID.taskLocal
    var readers = Reader.allCases.filter { $0 != .isolated }
    let loop: @Sendable (_ reader: Reader, _ iterations: Int) -> Void
  }

  enum Reader: String, CaseIterable, Sendable {
    case injected
    case concrete
    /// A wrapper that names its key: a prototype, not the library's.
    case keyed
    case seed
    case `subscript`
    case raw
    /// A main-actor accessor; only the main-actor shape has one.
    case isolated

    var title: String {
      switch self {
      case .injected: "@Injected"
      case .concrete: "@Injected, final class value"
      case .keyed: "@KeyedInjected(Key.self), a prototype"
      case .seed: "@Injected, seed-style accessor"
      case .subscript: #"InjectedValues[\.x]"#
      case .raw: "raw @TaskLocal read in the shape"
      case .isolated: "@Injected, main-actor accessor"
      }
    }
  }

  // Each shape spells out its readers' loops on its own concrete type, on purpose: a loop shared
  // through a protocol or a closure would measure that indirection, or the optimizer's luck in
  // removing it, instead of the read where apps put it.
  static let shapes: [Shape] = [
    Shape(id: "global-let", title: "struct in a global let of main.swift") {
      readGlobalShape($0, $1)
    },
    Shape(id: "class", title: "final class made in another module") {
      let shape = makeShapeClass()
      switch $0 {
      case .injected: for _ in 0..<$1 { blackHole(shape.service.call()) }
      case .concrete: for _ in 0..<$1 { blackHole(shape.concreteService.call()) }
      case .keyed: for _ in 0..<$1 { blackHole(shape.keyedService.call()) }
      case .seed: for _ in 0..<$1 { blackHole(shape.seedService.call()) }
      case .subscript: for _ in 0..<$1 { blackHole(shape.viaSubscript.call()) }
      case .raw: for _ in 0..<$1 { blackHole(shape.rawRead.call()) }
      case .isolated: fatalError("only the main-actor shape has a main-actor accessor")
      }
    },
    // Read in `cases(for:)`, in a task on the actor.
    Shape(id: "actor", title: "actor", baseline: actorBaselineID) { _, _ in },
    Shape(id: "main-actor", title: "main-actor class", readers: Reader.allCases) {
      reader,
      iterations in
      MainActor.assumeIsolated {
        let shape = ShapeCases.viewModel
        switch reader {
        case .injected: for _ in 0..<iterations { blackHole(shape.service.call()) }
        case .concrete: for _ in 0..<iterations { blackHole(shape.concreteService.call()) }
        case .keyed: for _ in 0..<iterations { blackHole(shape.keyedService.call()) }
        case .seed: for _ in 0..<iterations { blackHole(shape.seedService.call()) }
        case .subscript: for _ in 0..<iterations { blackHole(shape.viaSubscript.call()) }
        case .raw: for _ in 0..<iterations { blackHole(shape.rawRead.call()) }
        case .isolated: for _ in 0..<iterations { blackHole(shape.isolatedService.call()) }
        }
      }
    },
    Shape(id: "array", title: "element of an array of structs") {
      let shapes = makeShapeArray()
      switch $0 {
      case .injected: for i in 0..<$1 { blackHole(shapes[i & 3].service.call()) }
      case .concrete: for i in 0..<$1 { blackHole(shapes[i & 3].concreteService.call()) }
      case .keyed: for i in 0..<$1 { blackHole(shapes[i & 3].keyedService.call()) }
      case .seed: for i in 0..<$1 { blackHole(shapes[i & 3].seedService.call()) }
      case .subscript: for i in 0..<$1 { blackHole(shapes[i & 3].viaSubscript.call()) }
      case .raw: for i in 0..<$1 { blackHole(shapes[i & 3].rawRead.call()) }
      case .isolated: fatalError("only the main-actor shape has a main-actor accessor")
      }
    },
    Shape(id: "generic", title: "generic ShapeHolder<T>") {
      let shape = makeGenericShape()
      switch $0 {
      case .injected: for _ in 0..<$1 { blackHole(shape.service.call()) }
      case .concrete: for _ in 0..<$1 { blackHole(shape.concreteService.call()) }
      case .keyed: for _ in 0..<$1 { blackHole(shape.keyedService.call()) }
      case .seed: for _ in 0..<$1 { blackHole(shape.seedService.call()) }
      case .subscript: for _ in 0..<$1 { blackHole(shape.viaSubscript.call()) }
      case .raw: for _ in 0..<$1 { blackHole(shape.rawRead.call()) }
      case .isolated: fatalError("only the main-actor shape has a main-actor accessor")
      }
    },
  ]

  /// The view model the main-actor shape reads, made once.
  @MainActor static let viewModel = ShapeViewModel()

  /// The actor the actor shape reads, made once.
  static let actor = ShapeActor()

  static let actorBaselineID = "baseline.task-local.actor"

  /// A raw unbound task-local read in the actor shape's context: a task, on the actor.
  static var actorBaseline: Benchmark {
    Benchmark(
      actorBaselineID,
      "raw @TaskLocal read, unbound, on an actor",
      group: Group.shapes,
      baseline: BaselineID.taskLocal
    ) { iterations in
      AsyncWork.run { await actor.readRawTaskLocal(iterations) }
    }
  }

  static let target = Target.atMost(
    2,
    "≤ 2× a raw unbound TaskLocal read, in instructions",
    in: .instructions
  )

  static func cases(for shape: Shape) -> [Benchmark] {
    shape.readers.flatMap { reader in
      [false, true].map { overridden in
        Benchmark(
          "shape.\(shape.id).\(reader.rawValue).\(overridden ? "overridden" : "default")",
          "\(shape.title), \(reader.title), \(overridden ? "overridden" : "default")",
          group: Group.shapes,
          baseline: shape.baseline,
          target: reader == .raw ? nil : target,
          allocationLimit: 0
        ) { iterations in
          if reader == .raw {
            // The raw read binds only its own task-local, which adds no hop to the library's.
            if shape.id == "actor" {
              AsyncWork.run {
                if overridden {
                  await RawShapeLocals.$service.withValue(ShapeServices.mock) {
                    await actor.read(reader, iterations)
                  }
                } else {
                  await actor.read(reader, iterations)
                }
              }
            } else if overridden {
              RawShapeLocals.$service.withValue(ShapeServices.mock) {
                shape.loop(reader, iterations)
              }
            } else {
              shape.loop(reader, iterations)
            }
          } else if shape.id == "actor" {
            AsyncWork.run {
              if overridden {
                await withInjectedValues {
                  $0.shapeService = ShapeServices.mock
                  $0.seedShapeService = ShapeServices.mock
                  $0.concreteShapeService = ShapeServices.concreteMock
                } operation: {
                  await actor.read(reader, iterations)
                }
              } else {
                await actor.read(reader, iterations)
              }
            }
          } else if overridden {
            withInjectedValues {
              $0.shapeService = ShapeServices.mock
              $0.seedShapeService = ShapeServices.mock
              $0.concreteShapeService = ShapeServices.concreteMock
            } operation: {
              shape.loop(reader, iterations)
            }
          } else {
            shape.loop(reader, iterations)
          }
        }
      }
    }
  }

  /// The generic shape, made in a function the optimizer does not see into.
  @inline(never)
  static func makeGenericShape() -> ShapeHolder<Int> {
    ShapeHolder(7)
  }
}

extension ShapeActor {
  /// Reads the dependency `iterations` times, isolated to the actor.
  func read(_ reader: ShapeCases.Reader, _ iterations: Int) {
    switch reader {
    case .injected: for _ in 0..<iterations { blackHole(service.call()) }
    case .concrete: for _ in 0..<iterations { blackHole(concreteService.call()) }
    case .keyed: for _ in 0..<iterations { blackHole(keyedService.call()) }
    case .seed: for _ in 0..<iterations { blackHole(seedService.call()) }
    case .subscript: for _ in 0..<iterations { blackHole(viaSubscript.call()) }
    case .raw: for _ in 0..<iterations { blackHole(rawRead.call()) }
    case .isolated: fatalError("only the main-actor shape has a main-actor accessor")
    }
  }

  /// Reads a raw task-local `iterations` times, isolated to the actor.
  func readRawTaskLocal(_ iterations: Int) {
    for _ in 0..<iterations { blackHole(RawTaskLocals.service.call()) }
  }
}
