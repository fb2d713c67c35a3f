public import BenchmarkKeys
public import Injection

// The places app code puts `@Injected`, each in this module, over accessors of another module
// (BenchmarkKeys), read from the benchmark executable: Docs/Performance.md, "Where the wrapper
// lives". Each shape holds a wrapper over a plain forwarder, one over a seed-style forwarder,
// and reads `InjectedValues[\.x]` in a property.

/// A struct, which the executable stores in a global `let` of its `main.swift`.
public struct ShapeStruct: Sendable {
  /// The dependency, through a plain forwarder.
  @Injected(\.shapeService) public var service
  /// The dependency, through a seed-style forwarder.
  @Injected(\.seedShapeService) public var seedService
  /// The dependency whose value is a final class, through a plain forwarder.
  @Injected(\.concreteShapeService) public var concreteService

  /// Creates the struct; not inlinable, so the wrappers are made in this module.
  public init() {}

  /// The dependency, read through `InjectedValues[\.x]`.
  public var viaSubscript: any ShapeDependency { InjectedValues[\.shapeService] }

  /// A raw task-local, read the same way: the shape's own cost beside the library's.
  public var rawRead: any ShapeDependency { RawShapeLocals.service }
}

/// A final class, made by `makeShapeClass()`.
public final class ShapeClass {
  /// The dependency, through a plain forwarder.
  @Injected(\.shapeService) public var service
  /// The dependency, through a seed-style forwarder.
  @Injected(\.seedShapeService) public var seedService
  /// The dependency whose value is a final class, through a plain forwarder.
  @Injected(\.concreteShapeService) public var concreteService

  init() {}

  /// The dependency, read through `InjectedValues[\.x]`.
  public var viaSubscript: any ShapeDependency { InjectedValues[\.shapeService] }

  /// A raw task-local, read the same way: the shape's own cost beside the library's.
  public var rawRead: any ShapeDependency { RawShapeLocals.service }
}

/// Makes a `ShapeClass`, where the executable cannot see it made.
@inline(never)
public func makeShapeClass() -> ShapeClass {
  ShapeClass()
}

/// An actor; the executable reads its wrappers in an extension, isolated to it.
public actor ShapeActor {
  /// The dependency, through a plain forwarder.
  @Injected(\.shapeService) public var service
  /// The dependency, through a seed-style forwarder.
  @Injected(\.seedShapeService) public var seedService
  /// The dependency whose value is a final class, through a plain forwarder.
  @Injected(\.concreteShapeService) public var concreteService

  /// Creates the actor.
  public init() {}

  /// The dependency, read through `InjectedValues[\.x]`.
  public var viaSubscript: any ShapeDependency { InjectedValues[\.shapeService] }

  /// A raw task-local, read the same way: the shape's own cost beside the library's.
  public var rawRead: any ShapeDependency { RawShapeLocals.service }
}

/// A class isolated to the main actor, as a view model is.
@MainActor
public final class ShapeViewModel {
  /// The dependency, through a plain forwarder.
  @Injected(\.shapeService) public var service
  /// The dependency, through a seed-style forwarder.
  @Injected(\.seedShapeService) public var seedService
  /// The dependency whose value is a final class, through a plain forwarder.
  @Injected(\.concreteShapeService) public var concreteService

  /// The dependency whose value is a final class, through a main-actor accessor.
  @Injected(\.mainActorShapeService) public var isolatedService

  /// Creates the view model.
  public init() {}

  /// The dependency, read through `InjectedValues[\.x]`.
  public var viaSubscript: any ShapeDependency { InjectedValues[\.shapeService] }

  /// A raw task-local, read the same way: the shape's own cost beside the library's.
  public var rawRead: any ShapeDependency { RawShapeLocals.service }
}

/// Makes an array of four `ShapeStruct`s.
@inline(never)
public func makeShapeArray() -> [ShapeStruct] {
  (0..<4).map { _ in ShapeStruct() }
}

/// A generic type holding wrappers beside a payload.
public struct ShapeHolder<T: Sendable>: Sendable {
  /// The dependency, through a plain forwarder.
  @Injected(\.shapeService) public var service
  /// The dependency, through a seed-style forwarder.
  @Injected(\.seedShapeService) public var seedService
  /// The dependency whose value is a final class, through a plain forwarder.
  @Injected(\.concreteShapeService) public var concreteService
  /// What the holder holds besides its dependencies.
  public let payload: T

  /// Creates a holder of `payload`.
  public init(_ payload: T) { self.payload = payload }

  /// The dependency, read through `InjectedValues[\.x]`.
  public var viaSubscript: any ShapeDependency { InjectedValues[\.shapeService] }

  /// A raw task-local, read the same way: the shape's own cost beside the library's.
  public var rawRead: any ShapeDependency { RawShapeLocals.service }
}
