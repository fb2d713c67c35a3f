/// Consumes `value` so that the optimizer must compute it.
///
/// The function lives in its own module and is neither inlined nor optimized, so a caller
/// cannot prove that the value is unused and delete the work that produced it.
///
/// ```swift
/// for _ in 0..<iterations { blackHole(service.call()) }
/// ```
///
/// - Parameter value: The result of the work being measured.
@inline(never)
@_optimize(none)
public func blackHole<T>(_ value: T) {}
