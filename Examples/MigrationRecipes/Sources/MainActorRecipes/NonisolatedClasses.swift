// Classes whose state is shared across threads, in a module isolated to the main actor by
// default. Without `nonisolated`, such a class is a main-actor class: its lock would guard
// nothing the main actor does not, and code off the main actor would have to await it.
import Foundation  // NSLock
import Injection

nonisolated final class PriceFormatter: @unchecked Sendable {
  // Safe: `cachedFormatter` and `count` are read and written only while holding `lock`.
  private let lock = NSLock()
  private var cachedFormatter: NumberFormatter?
  private var count = 0

  var formattedCount: Int { lock.withLock { count } }

  func format(_ amount: Double) -> String {
    lock.withLock {
      count += 1
      return formatter().string(from: NSNumber(value: amount)) ?? "\(amount)"
    }
  }

  private func formatter() -> NumberFormatter {  // the `lazy var`; called holding `lock`
    if let cachedFormatter { return cachedFormatter }
    let formatter = NumberFormatter()
    cachedFormatter = formatter
    return formatter
  }
}

nonisolated protocol Uploading: Sendable {
  func destination(for name: String) -> String
}

nonisolated class Uploader: Uploading, @unchecked Sendable {
  // Safe: immutable after `init`. Subclasses add only `let`s of `Sendable` types.
  let baseURL: String

  init(baseURL: String) {
    self.baseURL = baseURL
  }

  func destination(for name: String) -> String { "\(baseURL)/\(name)" }
}

nonisolated final class MirrorUploader: Uploader, @unchecked Sendable {
  let mirrorURL = "https://mirror.example.com"

  override func destination(for name: String) -> String { "\(mirrorURL)/\(name)" }
}

nonisolated private struct PriceFormatterKey: InjectionKey {
  static let currentValue = PriceFormatter()
}

nonisolated private struct UploaderKey: InjectionKey {
  static let currentValue: any Uploading = Uploader(baseURL: "https://example.com")
}

nonisolated extension InjectedValues {
  var priceFormatter: PriceFormatter {
    get { self[PriceFormatterKey.self] }
    set { self[PriceFormatterKey.self] = newValue }
  }

  var uploader: any Uploading {
    get { self[UploaderKey.self] }
    set { self[UploaderKey.self] = newValue }
  }
}

// Read off the main actor, in the caller's task: no `await` for the services' methods.
@concurrent
func priceAndDestination(of amount: Double, file: String) async -> (String, String) {
  (
    InjectedValues[\.priceFormatter].format(amount),
    InjectedValues[\.uploader].destination(for: file)
  )
}
