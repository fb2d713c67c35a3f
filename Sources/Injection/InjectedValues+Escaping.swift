// MARK: - Carrying values into escaping closures

extension InjectedValues {
  /// Returns a closure that runs `body` with these values, wherever and whenever it is called.
  ///
  /// Escaping callbacks (a `DispatchQueue` block, a stored completion handler, a
  /// `NotificationCenter` observer) do not inherit the scope they were created in. Bind them to
  /// a snapshot when you create them:
  ///
  /// ```swift
  /// let onDone = InjectedValues.current.bind { (count: Int) in
  ///   InjectedValues[\.greeting]   // the scope that created the callback
  /// }
  /// DispatchQueue.global().async { _ = onDone(3) }
  /// ```
  ///
  /// - Parameter body: The closure to run with these values.
  /// - Returns: A closure that takes the same argument and runs `body` inside
  ///   ``withInjectedValues(_:operation:)`` with these values.
  public func bind<Argument, Result>(
    _ body: @escaping @Sendable (Argument) -> Result
  ) -> @Sendable (Argument) -> Result {
    { [self] argument in withInjectedValues(self) { body(argument) } }
  }

  /// Returns a closure without arguments that runs `body` with these values.
  ///
  /// ```swift
  /// let work = InjectedValues.current.bind { print(InjectedValues[\.greeting]) }
  /// DispatchQueue.global().async(execute: work)
  /// ```
  ///
  /// - Parameter body: The closure to run with these values.
  /// - Returns: A closure that runs `body` inside ``withInjectedValues(_:operation:)`` with
  ///   these values.
  public func bind<Result>(
    _ body: @escaping @Sendable () -> Result
  ) -> @Sendable () -> Result {
    { [self] in withInjectedValues(self) { body() } }
  }
}
