import Dispatch

/// Whether code runs on the main dispatch queue, which is where the main actor runs.
///
/// The main thread runs the main queue until it parks in `dispatch_main()`; after that, on
/// Linux, worker threads run it, one at a time. A block on the main queue is on the main actor,
/// as `MainActor.assumeIsolated` decides it too, but asking that allocates on Linux, and a wrong
/// answer stops the program without a word.
enum MainQueue {
  /// A key the main queue answers `true` for, set on the main queue once, on first use.
  private static let marker: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
  }()

  /// Whether the code running now runs on the main queue.
  static var isCurrent: Bool { DispatchQueue.getSpecific(key: marker) == true }
}
