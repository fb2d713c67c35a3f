import Testing

@testable import Injection

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Every key here is private to this file: tests elsewhere never see its global values.

private let liveVersions = AtomicCounter()
private let endedVersions = AtomicCounter()

/// A global value whose deinitializer is counted.
private final class Version: Sendable {
  let number: Int
  init(_ number: Int) {
    self.number = number
    liveVersions.increment()
  }
  deinit { endedVersions.increment() }
}

private struct VersionKey: InjectionKey {
  static var currentValue: Version? { nil }
}

private struct PublishedNumberKey: InjectionKey {
  static let currentValue = 0
}

private let endedIndexedVersions = AtomicCounter()

/// A global value of `IndexedVersionKey`, whose deinitializer is counted.
private final class IndexedVersion: Sendable {
  init() {}
  deinit { endedIndexedVersions.increment() }
}

private struct IndexedVersionKey: InjectionKey {
  static var currentValue: IndexedVersion? { nil }
}

/// Keys set globally beside `IndexedVersionKey`, so that the global values outgrow a few boxes.
private enum Filler0 {}
private enum Filler1 {}
private enum Filler2 {}
private enum Filler3 {}
private enum Filler4 {}
private struct FillerKey<Tag>: InjectionKey {
  static var currentValue: Int { 0 }
}

private let endedPairedVersions = AtomicCounter()

/// A global value of `PairedVersionKey` or `PartnerVersionKey`, whose deinitializer is counted.
private final class PairedVersion: Sendable {
  let number: Int
  init(_ number: Int) { self.number = number }
  deinit { endedPairedVersions.increment() }
}

private struct PairedVersionKey: InjectionKey {
  static var currentValue: PairedVersion? { nil }
}

private struct PartnerVersionKey: InjectionKey {
  static var currentValue: PairedVersion? { nil }
}

extension InjectedValues {
  fileprivate var version: Version? {
    get { self[VersionKey.self] }
    set { self[VersionKey.self] = newValue }
  }

  /// Sets both keys: a setter that writes two global values at once.
  fileprivate var pairedVersions: PairedVersion? {
    get { self[PairedVersionKey.self] }
    set {
      self[PartnerVersionKey.self] = newValue.map { PairedVersion($0.number + 1) }
      self[PairedVersionKey.self] = newValue
    }
  }

  fileprivate var partnerVersion: PairedVersion? {
    get { self[PartnerVersionKey.self] }
    set { self[PartnerVersionKey.self] = newValue }
  }

  fileprivate var publishedNumber: Int {
    get { self[PublishedNumberKey.self] }
    set { self[PublishedNumberKey.self] = newValue }
  }
}

/// A word that threads share, for the tests' own bookkeeping.
private final class SharedWord: @unchecked Sendable {
  // Safe: `value` is only touched under `lock`.
  private let lock = Lock()
  private var stored = 0
  var value: Int {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
}

@Suite("Global values under concurrent reads")
struct GlobalReadTests {
  @Test("A global write is seen by every later read, on every thread, and never undone")
  func globalWriteIsVisibleAtOnce() {
    let written = SharedWord()
    let stop = SharedWord()
    let misreads = SharedWord()
    let readers = (0..<2).map { _ in
      startThread {
        var last = 0
        while stop.value == 0 {
          let before = written.value  // written before this read started
          let seen = InjectedValues[\.publishedNumber]
          if seen < before || seen < last { misreads.value += 1 }
          last = seen
        }
      }
    }
    for number in 1...2_000 {
      InjectedValues[\.publishedNumber] = number
      written.value = number
      if number.isMultiple(of: 100) { sched_yield() }
    }
    stop.value = 1
    for reader in readers { pthread_join(reader, nil) }
    #expect(misreads.value == 0)
    #expect(InjectedValues[\.publishedNumber] == 2_000)
  }

  @Test("A value that a setter of two keys set is released by the write that replaces it")
  func valuesSetTogetherAreReleasedApart() {
    InjectedValues[\.pairedVersions] = PairedVersion(1)  // sets 2 as the partner, then 1
    #expect(InjectedValues[\.partnerVersion]?.number == 2)
    let endedBefore = endedPairedVersions.value
    InjectedValues[\.partnerVersion] = PairedVersion(3)
    #expect(endedPairedVersions.value == endedBefore + 1, "2 is released at once")
    #expect(InjectedValues[\.pairedVersions]?.number == 1, "the other key keeps its value")
    InjectedValues.resetGlobal(\.pairedVersions)
    InjectedValues.resetGlobal(\.partnerVersion)
    #expect(endedPairedVersions.value == endedBefore + 3)
  }

  @Test("A global value set before many other keys is released by the write that replaces it")
  func valueBeforeManyKeysIsReleasedByItsReplacement() {
    let fillers: [any InjectionKey.Type] = [
      FillerKey<Filler0>.self, FillerKey<Filler1>.self, FillerKey<Filler2>.self,
      FillerKey<Filler3>.self, FillerKey<Filler4>.self,
    ]
    let endedBefore = endedIndexedVersions.value
    InjectedValues[IndexedVersionKey.self] = IndexedVersion()
    InjectedValues[FillerKey<Filler0>.self] = 0
    InjectedValues[FillerKey<Filler1>.self] = 1
    InjectedValues[FillerKey<Filler2>.self] = 2
    InjectedValues[FillerKey<Filler3>.self] = 3
    InjectedValues[FillerKey<Filler4>.self] = 4
    InjectedValues[IndexedVersionKey.self] = IndexedVersion()
    #expect(endedIndexedVersions.value == endedBefore + 1, "the first value is released at once")
    InjectedValues[FillerKey<Filler0>.self] = 5
    InjectedValues[IndexedVersionKey.self] = nil
    #expect(endedIndexedVersions.value == endedBefore + 2, "so is the second")
    #expect(InjectedValues.current.source(of: IndexedVersionKey.self) == .global)
    InjectedValues.resetGlobals(of: fillers + [IndexedVersionKey.self])
    #expect(InjectedValues.current.source(of: FillerKey<Filler4>.self) == .defaultValue)
    #expect(InjectedValues.current.source(of: IndexedVersionKey.self) == .defaultValue)
  }

  @Test("Every replaced global value is released while other threads keep reading the key")
  func replacedGlobalValuesAreReleased() {
    let stop = SharedWord()
    let readers = (0..<2).map { _ in
      startThread {
        while stop.value == 0 { _ = InjectedValues[\.version]?.number }
      }
    }
    for number in 1...2_000 { InjectedValues[\.version] = Version(number) }
    stop.value = 1
    for reader in readers { pthread_join(reader, nil) }
    #expect(InjectedValues[\.version]?.number == 2_000)
    InjectedValues.resetGlobal(\.version)
    #expect(endedVersions.value == liveVersions.value)
    #expect(liveVersions.value == 2_000)
  }
}
