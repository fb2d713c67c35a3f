import Synchronization

/// The global fallback values: what `InjectedValues[\.x] = v` and `@Injected`'s setter set.
///
/// Reads must not take a lock when nothing is set for their key, and must see a global change
/// at once. The layout that gives both:
///
/// - Each key that has ever been set globally owns a `GlobalCell`, created on its first global
///   write and never freed. A cell's value is read and written only under `lock`.
/// - An immutable `GlobalIndex` maps keys to cells. Adding a key publishes a new index through
///   an atomic word; old indexes are never freed either, so a reader can use whichever index it
///   loaded without retaining it. Their number is bounded by the number of keys ever set
///   globally (a few per app), and each holds one slot pair per key.
///
/// So a read whose key was never set globally costs one atomic load and one probe; a read whose
/// key was set takes the lock for the time it takes to copy one reference.
@usableFromInline
final class GlobalValues: @unchecked Sendable {
  // Safe: `cells` and `fallbackIndex` are read and written only under `lock`; each cell's value
  // is guarded by the same `lock`; `atomicIndex` synchronizes itself.
  private let lock = Lock()
  private var cells = KeyTable<GlobalCell>()
  /// The published index where `Synchronization` is unavailable (Apple OSes before 2024).
  private var fallbackIndex: UInt = 0
  /// An `AtomicWord` where `Synchronization` is available.
  private let atomicIndex: (any AnyObject & Sendable)?

  @usableFromInline
  static let shared = GlobalValues()

  private init() {
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
      atomicIndex = AtomicWord()
    } else {
      atomicIndex = nil
    }
  }

  /// Returns the global override for `key`, if one is set.
  @usableFromInline
  func box(for key: UInt) -> (any OverrideBox)? {
    let index = publishedIndex()
    guard index != 0 else { return nil }
    let cell = Unmanaged<GlobalIndex>.fromOpaque(UnsafeRawPointer(bitPattern: index)!)
      ._withUnsafeGuaranteedRef { $0.table.find(key) }
    guard let cell else { return nil }
    return lock.withLock { cell.box }
  }

  /// Sets (or, with `nil`, removes) the global override for `key`.
  func setBox(_ box: (any OverrideBox)?, for key: UInt) {
    // The replaced box is released after the lock is dropped: releasing it may run a deinit,
    // which is user code.
    let replaced: (any OverrideBox)? = lock.withLock {
      if let cell = cells.find(key) {
        let old = cell.box
        cell.box = box
        return old
      }
      guard let box else { return nil }
      cells.insert(GlobalCell(box), for: key)
      publish(GlobalIndex(table: cells))
      return nil
    }
    withExtendedLifetime(replaced) {}
  }

  /// Every global override that is set, in no particular order.
  var boxes: [any OverrideBox] {
    lock.withLock { cells.elements.compactMap(\.box) }
  }

  private func publishedIndex() -> UInt {
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
      return unsafeDowncast(atomicIndex.unsafelyUnwrapped as AnyObject, to: AtomicWord.self)
        .value.load(ordering: .acquiring)
    } else {
      return lock.withLock { fallbackIndex }
    }
  }

  /// Publishes `index`, leaking it on purpose (see the type's documentation). Called under `lock`.
  private func publish(_ index: GlobalIndex) {
    let word = UInt(bitPattern: Unmanaged.passRetained(index).toOpaque())
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
      unsafeDowncast(atomicIndex.unsafelyUnwrapped as AnyObject, to: AtomicWord.self)
        .value.store(word, ordering: .releasing)
    } else {
      fallbackIndex = word
    }
  }
}

/// The global override of one key. Guarded by `GlobalValues.lock`.
final class GlobalCell: @unchecked Sendable {
  // Safe: `box` is read and written only while holding the lock of `GlobalValues.shared`,
  // declared beside this type.
  var box: (any OverrideBox)?

  init(_ box: any OverrideBox) { self.box = box }
}

/// An immutable snapshot of which keys have a global cell.
final class GlobalIndex: Sendable {
  let table: KeyTable<GlobalCell>

  init(table: KeyTable<GlobalCell>) { self.table = table }
}

/// A word that is read and written atomically.
///
/// `Atomic` needs macOS 15, iOS 18, tvOS 18, watchOS 11 or visionOS 2, hence the annotation;
/// `GlobalValues` checks availability before every use and falls back to its lock.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class AtomicWord: Sendable {
  let value = Atomic<UInt>(0)
}
