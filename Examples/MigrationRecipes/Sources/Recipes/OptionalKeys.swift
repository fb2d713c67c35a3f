// Keys whose default is `nil`, set once the app has what it needs (a video client after the user
// logs in). A `static var` with no initializer is `nil` by default; a `static let` is not:
// "'static let' declaration requires an initializer expression or an explicitly stated getter".
// A key written `nonisolated(unsafe) static var` compiles unchanged, and nothing checks it: code
// that assigned the key sets the global value instead.
import Injection

/// A stand-in for a video SDK's client, created with the user's token.
final class VideoClient: Sendable {
  let token: String

  init(token: String) {
    self.token = token
  }
}

// Before: static var currentValue: VideoClient?
//     or: nonisolated(unsafe) static var currentValue: VideoClient?
private struct VideoClientKey: InjectionKey {
  static let currentValue: VideoClient? = nil
}

extension InjectedValues {
  var videoClient: VideoClient? {
    get { self[VideoClientKey.self] }
    set { self[VideoClientKey.self] = newValue }
  }
}

enum VideoSession {
  // Before: VideoClientKey.currentValue = VideoClient(token: token)
  static func logIn(token: String) {
    InjectedValues[\.videoClient] = VideoClient(token: token)
  }

  // Before: VideoClientKey.currentValue = nil
  static func logOut() {
    InjectedValues.resetGlobal(\.videoClient)
  }
}
