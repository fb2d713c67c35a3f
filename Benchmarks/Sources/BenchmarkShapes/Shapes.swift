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
  /// The dependency, through a wrapper that names its key instead of an accessor.
  @KeyedInjected(ShapeServiceKey.self) public var keyedService

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
  /// The dependency, through a wrapper that names its key instead of an accessor.
  @KeyedInjected(ShapeServiceKey.self) public var keyedService

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
  /// The dependency, through a wrapper that names its key instead of an accessor.
  @KeyedInjected(ShapeServiceKey.self) public var keyedService

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
  /// The dependency, through a wrapper that names its key instead of an accessor.
  @KeyedInjected(ShapeServiceKey.self) public var keyedService

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
  /// The dependency, through a wrapper that names its key instead of an accessor.
  @KeyedInjected(ShapeServiceKey.self) public var keyedService
  /// What the holder holds besides its dependencies.
  public let payload: T

  /// Creates a holder of `payload`.
  public init(_ payload: T) { self.payload = payload }

  /// The dependency, read through `InjectedValues[\.x]`.
  public var viaSubscript: any ShapeDependency { InjectedValues[\.shapeService] }

  /// A raw task-local, read the same way: the shape's own cost beside the library's.
  public var rawRead: any ShapeDependency { RawShapeLocals.service }
}

/// A wrapper that names its key, not an accessor: what `@Injected` would need to reach 2× without
/// the optimizer specializing a closure (Docs/Performance.md, "Where the wrapper lives"). It holds
/// nothing, and its read is ordinary generic code, specialized for `Key` where it is used.
@propertyWrapper
public struct KeyedInjected<Key: InjectionKey>: Sendable {
  /// Creates a wrapper that reads `key`.
  public init(_ key: Key.Type) {}

  /// The dependency as the current task sees it.
  @inlinable
  public var wrappedValue: Key.Value { InjectedValues[Key.self] }
}
