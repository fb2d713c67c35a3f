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

/// Returns `value`, which the optimizer of the caller cannot see: a loop bound it returns is not
/// known at compile time, so the loop is not unrolled.
///
/// ```swift
/// for _ in 0..<opaque(5) { sum &+= service.call() }
/// ```
///
/// - Parameter value: The value to hide from the optimizer.
/// - Returns: `value`.
@inline(never)
@_optimize(none)
public func opaque<T>(_ value: T) -> T { value }
