public import Injection

/// What the shape matrix reads: an existential of a class, like the read cases' dependency.
public protocol ShapeDependency: Sendable {
  /// A method that is never inlined, so each read is followed by a real call.
  func call() -> Int
}

/// The class behind every shape's dependency.
public final class ShapeService: ShapeDependency {
  let id: Int

  /// Creates a service that answers `id`.
  public init(id: Int) { self.id = id }

  /// Returns the service's number; never inlined, so each read is followed by a real call.
  @inline(never)
  public func call() -> Int { id }
}

/// The instances the matrix reads; created once, so no case measures their allocation.
public enum ShapeServices {
  /// The default of both keys.
  public static let live: any ShapeDependency = ShapeService(id: 1)
  /// What the overridden cases bind.
  public static let mock: any ShapeDependency = ShapeService(id: 2)
  /// The default of the key whose value is the class itself, not an existential.
  public static let concreteLive = ShapeService(id: 3)
  /// What the overridden cases bind for that key.
  public static let concreteMock = ShapeService(id: 4)
}

/// A raw task-local beside the keys: what each shape's raw read reads.
public enum RawShapeLocals {
  /// Holds `ShapeServices.live` unless bound.
  @TaskLocal public static var service: any ShapeDependency = ShapeServices.live
}

/// The key of `shapeService`; public, so that a wrapper can name it (see `KeyedInjected`).
public struct ShapeServiceKey: InjectionKey {
  /// The live service.
  public static let currentValue: any ShapeDependency = ShapeServices.live
}

struct SeedShapeServiceKey: InjectionKey {
  static let currentValue: any ShapeDependency = ShapeServices.live
}

struct ConcreteShapeServiceKey: InjectionKey {
  static let currentValue = ShapeServices.concreteLive
}

extension InjectedValues {
  /// A plain forwarder, declared in this module like an app's accessors are.
  public var shapeService: any ShapeDependency {
    get { self[ShapeServiceKey.self] }
    set { self[ShapeServiceKey.self] = newValue }
  }

  /// A plain forwarder to a key whose value is a final class.
  public var concreteShapeService: ShapeService {
    get { self[ConcreteShapeServiceKey.self] }
    set { self[ConcreteShapeServiceKey.self] = newValue }
  }

  /// A plain forwarder isolated to the main actor, as in a module isolated to it by default: its
  /// key path is not `Sendable`, so `@Injected` takes it through its main-actor initializer.
  @MainActor
  public var mainActorShapeService: ShapeService {
    get { self[ConcreteShapeServiceKey.self] }
    set { self[ConcreteShapeServiceKey.self] = newValue }
  }

  /// A seed-style forwarder: the accessor reads and writes through the type.
  public var seedShapeService: any ShapeDependency {
    get { Self[SeedShapeServiceKey.self] }
    set { Self[SeedShapeServiceKey.self] = newValue }
  }
}
