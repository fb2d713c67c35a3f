// swift-format-ignore-file
// Shapes found in public apps written in the seed pattern, in their own Swift 5 style. Each
// must compile unchanged against the library; `SeedUsageTests` checks how each behaves.
import Injection
import XCTest

// MARK: Read-only views

protocol QuoteReading {
    func quote() -> String
}

final class QuoteStore: QuoteReading {
    var count = 0
    let name: String
    init(name: String) { self.name = name }
    func quote() -> String { "\(name) #\(count)" }
}

private struct QuoteStoreKey: InjectionKey {
    static var currentValue = QuoteStore(name: "live")
}

extension InjectedValues {
    var quoteStore: QuoteStore {
        get { Self[QuoteStoreKey.self] }
        set { Self[QuoteStoreKey.self] = newValue }
    }

    /// A narrowed, get-only view of another dependency.
    var reader: QuoteReading { quoteStore }
}

struct QuoteScreen {
    @Injected(\.reader) var reader: QuoteReading

    func title() -> String { reader.quote() }
}

// MARK: A type that is its own key

final class Ticker: InjectionKey {
    static var currentValue = Ticker(label: "default ticker")
    let label: String
    init(label: String) { self.label = label }
}

// MARK: Nested keys and unannotated wrappers

extension InjectedValues {
    private struct LanguageKey: InjectionKey {
        static var currentValue = "en"
    }

    var language: String {
        get { Self[LanguageKey.self] }
        set { Self[LanguageKey.self] = newValue }
    }
}

struct LanguageSettings {
    @Injected(\.language) var language

    /// Sets the dependency from a non-mutating method: the wrapper's setter is nonmutating.
    func switchLanguage(to newLanguage: String) {
        language = newLanguage
    }
}

// MARK: Optional dependencies

private struct SessionTokenKey: InjectionKey {
    static var currentValue: String? = "default-token"
}

extension InjectedValues {
    var sessionToken: String? {
        get { Self[SessionTokenKey.self] }
        set { Self[SessionTokenKey.self] = newValue }
    }
}

struct SessionReader {
    @Injected(\.sessionToken) var token: String?
}

// MARK: Other hosts

actor TranslationWorker {
    @Injected(\.language) var language: String

    func currentLanguage() -> String { language }
}

final class LanguageHostTestCase: XCTestCase {
    @Injected(\.language) var language: String

    func languageSeenByTestCase() -> String { language }
}

// MARK: Mutating through the subscript

private struct CounterStoreKey: InjectionKey {
    static var currentValue = QuoteStore(name: "counter")
}

extension InjectedValues {
    var counterStore: QuoteStore {
        get { Self[CounterStoreKey.self] }
        set { Self[CounterStoreKey.self] = newValue }
    }
}

func bumpCounterThroughSubscript() {
    InjectedValues[\.counterStore].count = 3
}
