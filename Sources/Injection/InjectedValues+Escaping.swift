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
  /// let work = InjectedValues.current.bind {
  ///   print(InjectedValues[\.greeting])
  /// }
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

  /// Returns a closure that runs the throwing `body` with these values, and rethrows its error.
  ///
  /// The throwing counterpart of `bind(_:)`. The closure stays synchronous:
  ///
  /// ```swift
  /// struct NotANumber: Error {}
  /// let values = InjectedValues.current
  /// let parse = values.bind { (text: String) throws -> Int in
  ///   guard let number = Int(text) else { throw NotANumber() }
  ///   return number
  /// }
  /// let seven = try parse("7")   // no `await`
  /// ```
  ///
  /// - Parameter body: The closure to run with these values; it may throw.
  /// - Returns: A closure that takes the same argument, runs `body` inside
  ///   ``withInjectedValues(_:operation:)`` with these values, and rethrows its error.
  public func bind<Argument, Result>(
    _ body: @escaping @Sendable (Argument) throws -> Result
  ) -> @Sendable (Argument) throws -> Result {
    { [self] argument in try withInjectedValues(self) { () throws in try body(argument) } }
  }

  /// Returns a closure without arguments that runs the throwing `body` with these values, and
  /// rethrows its error.
  ///
  /// ```swift
  /// struct NoGreeting: Error {}
  /// let check = InjectedValues.current.bind { () throws in
  ///   if InjectedValues[\.greeting].isEmpty { throw NoGreeting() }
  /// }
  /// try check()
  /// ```
  ///
  /// - Parameter body: The closure to run with these values; it may throw.
  /// - Returns: A closure that runs `body` inside ``withInjectedValues(_:operation:)`` with
  ///   these values, and rethrows its error.
  public func bind<Result>(
    _ body: @escaping @Sendable () throws -> Result
  ) -> @Sendable () throws -> Result {
    { [self] in try withInjectedValues(self) { () throws in try body() } }
  }
}

// MARK: - Carrying values into asynchronous callbacks

extension InjectedValues {
  /// Returns an asynchronous closure that runs `body` with these values, wherever it is called.
  ///
  /// The asynchronous counterpart of `bind(_:)`, for callbacks that may suspend: an
  /// `AsyncStream(unfolding:)` closure, a handler a framework calls from a task of its own. A
  /// synchronous closure still picks the synchronous overload.
  ///
  /// ```swift
  /// let fetch = InjectedValues.current.bind { (id: Int) async in
  ///   // The values of the scope that created the callback:
  ///   "\(InjectedValues[\.greeting]) #\(id)"
  /// }
  /// let text = await Task.detached { await fetch(7) }.value
  /// ```
  ///
  /// - Parameter body: The closure to run with these values; it may suspend.
  /// - Returns: A closure that takes the same argument and runs `body` inside
  ///   ``withInjectedValues(_:operation:isolation:)`` with these values.
  public func bind<Argument, Result>(
    _ body: @escaping @Sendable (Argument) async -> Result
  ) -> @Sendable (Argument) async -> Result {
    { [self] argument in await withInjectedValues(self) { () async in await body(argument) } }
  }

  /// Returns an asynchronous closure without arguments that runs `body` with these values.
  ///
  /// ```swift
  /// let values = InjectedValues.current
  /// let next = values.bind { () async -> String? in
  ///   InjectedValues[\.greeting]  // the scope that made the stream
  /// }
  /// let greetings = AsyncStream<String>(unfolding: next)
  /// ```
  ///
  /// - Parameter body: The closure to run with these values; it may suspend.
  /// - Returns: A closure that runs `body` inside ``withInjectedValues(_:operation:isolation:)``
  ///   with these values.
  public func bind<Result>(
    _ body: @escaping @Sendable () async -> Result
  ) -> @Sendable () async -> Result {
    { [self] in await withInjectedValues(self) { () async in await body() } }
  }

  /// Returns an asynchronous closure that runs the throwing `body` with these values.
  ///
  /// ```swift
  /// let values = InjectedValues.current
  /// let load = values.bind { (path: String) async throws -> String in
  ///   try await Task.sleep(nanoseconds: 1_000)
  ///   return "\(InjectedValues[\.greeting]) \(path)"
  /// }
  /// ```
  ///
  /// - Parameter body: The closure to run with these values; it may suspend and throw.
  /// - Returns: A closure that takes the same argument, runs `body` inside
  ///   ``withInjectedValues(_:operation:isolation:)`` with these values, and rethrows its error.
  public func bind<Argument, Result>(
    _ body: @escaping @Sendable (Argument) async throws -> Result
  ) -> @Sendable (Argument) async throws -> Result {
    { [self] argument in
      try await withInjectedValues(self) { () async throws in try await body(argument) }
    }
  }

  /// Returns an asynchronous closure without arguments that runs the throwing `body` with these
  /// values.
  ///
  /// ```swift
  /// let values = InjectedValues.current
  /// let next = values.bind { () async throws -> String? in
  ///   InjectedValues[\.greeting]
  /// }
  /// let lines = AsyncThrowingStream<String, any Error>(unfolding: next)
  /// ```
  ///
  /// - Parameter body: The closure to run with these values; it may suspend and throw.
  /// - Returns: A closure that runs `body` inside ``withInjectedValues(_:operation:isolation:)``
  ///   with these values, and rethrows its error.
  public func bind<Result>(
    _ body: @escaping @Sendable () async throws -> Result
  ) -> @Sendable () async throws -> Result {
    { [self] in try await withInjectedValues(self) { () async throws in try await body() } }
  }
}
