#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Suspends tasks until their sockets are ready, using one thread that sleeps in `poll(2)`.
///
/// Swift concurrency runs tasks on a few threads, about one per core. A task that blocked one of
/// them in `read` would stall every other connection, so sockets are non-blocking, and a task
/// whose socket is not ready calls ``wait(for:on:timeoutMilliseconds:)`` and suspends. The
/// poller's thread watches the sockets of all waiting tasks (and a pipe that wakes it when one
/// more starts waiting) and resumes each task when its socket is ready, when its time is up, or
/// when the task is cancelled.
///
/// Call ``stop()`` when done: it resumes any task still waiting, and the thread exits.
final class Poller: Sendable {
  /// What a task waits for.
  enum Readiness {
    case readable, writable
  }

  /// The error of a wait whose time ran out.
  struct TimedOut: Error {}

  private struct Waiter {
    let descriptor: Int32
    let events: Int16
    /// On the monotonic clock, in milliseconds; `Int64.max` for none.
    let deadline: Int64
    let continuation: CheckedContinuation<Void, any Error>
  }

  /// Each wait has an entry from the moment it starts until the poller resumes it.
  private enum Entry {
    /// Started, but the task has not suspended yet.
    case starting
    /// Cancelled before the task suspended: it must not suspend.
    case cancelled
    case waiting(Waiter)
  }

  private struct State {
    var entries: [UInt64: Entry] = [:]
    var lastID: UInt64 = 0
    var isStopped = false
  }

  private let state = Lock(State())
  private let wakeReader: Int32
  private let wakeWriter: Int32

  /// Starts the poller's thread.
  init() throws(SocketError) {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { throw SocketError("pipe") }
    for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
    (wakeReader, wakeWriter) = (ends[0], ends[1])
    try startThread()
  }

  deinit {
    close(wakeReader)
    close(wakeWriter)
  }

  /// Resumes every waiting task with `CancellationError`, and lets the thread exit.
  func stop() {
    state.withLock { $0.isStopped = true }
    wake()
  }

  // MARK: - Waiting

  /// Suspends until `descriptor` is ready.
  ///
  /// - Parameters:
  ///   - readiness: Whether to wait until the socket can be read or written.
  ///   - descriptor: The socket.
  ///   - timeoutMilliseconds: How long to wait at most; `nil` to wait until ready or cancelled.
  /// - Throws: `TimedOut` when the time runs out; `CancellationError` if the task is cancelled or
  ///   the poller stops.
  func wait(
    for readiness: Readiness,
    on descriptor: Int32,
    timeoutMilliseconds: Int?
  ) async throws {
    let deadline = timeoutMilliseconds.map { Self.now() + Int64($0) } ?? .max
    let id: UInt64? = state.withLock { state in
      guard !state.isStopped else { return nil }
      state.lastID += 1
      state.entries[state.lastID] = .starting
      return state.lastID
    }
    guard let id else { throw CancellationError() }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let events = Int16(readiness == .readable ? POLLIN : POLLOUT)
        let waiter = Waiter(
          descriptor: descriptor,
          events: events,
          deadline: deadline,
          continuation: continuation
        )
        let isWaiting = state.withLock { state in
          guard case .starting = state.entries[id], !state.isStopped else {
            state.entries[id] = nil
            return false
          }
          state.entries[id] = .waiting(waiter)
          return true
        }
        if isWaiting {
          wake()
        } else {
          continuation.resume(throwing: CancellationError())
        }
      }
    } onCancel: {
      let waiter = state.withLock { state -> Waiter? in
        switch state.entries[id] {
        case .starting:
          state.entries[id] = .cancelled
          return nil
        case .waiting(let waiter):
          state.entries[id] = nil
          return waiter
        case .cancelled, nil:
          return nil  // already resumed
        }
      }
      waiter?.continuation.resume(throwing: CancellationError())
    }
  }

  // MARK: - The thread

  private func startThread() throws(SocketError) {
    // The thread owns a reference to the poller until it exits.
    let poller = Unmanaged.passRetained(self).toOpaque()
    #if canImport(Glibc)
      var thread = pthread_t()
    #elseif canImport(Darwin)
      var thread: pthread_t?
    #endif
    let status = pthread_create(
      &thread,
      nil,
      { argument in
        // Optional on Linux, not on Apple platforms: this line accepts either.
        let argument: UnsafeMutableRawPointer? = argument
        Unmanaged<Poller>.fromOpaque(argument!).takeRetainedValue().run()
        return nil
      },
      poller
    )
    guard status == 0 else {
      Unmanaged<Poller>.fromOpaque(poller).release()
      throw SocketError("pthread_create", code: status)
    }
    #if canImport(Glibc)
      pthread_detach(thread)
    #elseif canImport(Darwin)
      pthread_detach(thread!)
    #endif
  }

  private func run() {
    var descriptors: [pollfd] = []
    var ids: [UInt64] = []
    while true {
      descriptors = [pollfd(fd: wakeReader, events: Int16(POLLIN), revents: 0)]
      ids = []
      var timeout: Int64 = -1  // none
      let isStopped = state.withLock { state in
        let now = Self.now()
        for case (let id, .waiting(let waiter)) in state.entries {
          descriptors.append(pollfd(fd: waiter.descriptor, events: waiter.events, revents: 0))
          ids.append(id)
          if waiter.deadline != .max {
            let remaining = max(0, waiter.deadline - now)
            timeout = timeout < 0 ? remaining : min(timeout, remaining)
          }
        }
        return state.isStopped
      }
      if isStopped { break }

      _ = poll(&descriptors, nfds_t(descriptors.count), Int32(clamping: timeout))
      if descriptors[0].revents != 0 { drainWakePipe() }

      let finished = state.withLock { state -> [(Waiter, timedOut: Bool)] in
        let now = Self.now()
        var finished: [(Waiter, timedOut: Bool)] = []
        for (index, id) in ids.enumerated() {
          guard case .waiting(let waiter) = state.entries[id] else { continue }
          // Errors and hang-ups count as ready: the next read or write reports them.
          if descriptors[index + 1].revents != 0 || waiter.deadline <= now {
            state.entries[id] = nil
            finished.append((waiter, timedOut: descriptors[index + 1].revents == 0))
          }
        }
        return finished
      }
      for (waiter, timedOut) in finished {
        if timedOut {
          waiter.continuation.resume(throwing: TimedOut())
        } else {
          waiter.continuation.resume()
        }
      }
    }
    // Stopped: no task may stay suspended.
    let waiting = state.withLock { state in
      defer { state.entries = [:] }
      return state.entries.values.compactMap { entry -> Waiter? in
        if case .waiting(let waiter) = entry { return waiter }
        return nil
      }
    }
    for waiter in waiting { waiter.continuation.resume(throwing: CancellationError()) }
  }

  private func wake() {
    var byte: UInt8 = 1
    _ = write(wakeWriter, &byte, 1)  // if the pipe is full, the thread is awake anyway
  }

  private func drainWakePipe() {
    var bytes = [UInt8](repeating: 0, count: 64)
    while bytes.withUnsafeMutableBytes({ read(wakeReader, $0.baseAddress, $0.count) }) > 0 {}
  }

  /// Milliseconds on a monotonic clock.
  private static func now() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
  }
}
