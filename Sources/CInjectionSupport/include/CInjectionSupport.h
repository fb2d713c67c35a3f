// Two primitives the Injection module needs and Swift's standard library does not offer on every
// platform the package declares (macOS 10.15, iOS 13, tvOS 13, watchOS 6, Linux): a word that is
// loaded and stored atomically, and one pointer-sized slot of thread-local storage.
//
// Everything is `static inline`, so Swift inlines it into its callers. C11's <stdatomic.h> and
// `_Thread_local` are part of every C compiler that builds Swift packages, and need no
// availability check on Apple platforms.
#ifndef C_INJECTION_SUPPORT_H
#define C_INJECTION_SUPPORT_H

#include <stdatomic.h>
#include <stdint.h>

// MARK: - Atomic words
//
// `word` points to a `uintptr_t` in memory that Swift allocated (never a Swift stored property),
// aligned for a `uintptr_t`, and accessed only through these functions.

/// Loads `*word` with acquire ordering: what was written before the matching release store is
/// visible after it.
static inline uintptr_t injection_load_acquire(const void *word) {
  return atomic_load_explicit((const _Atomic(uintptr_t) *)word, memory_order_acquire);
}

/// Stores `value` in `*word` with release ordering.
static inline void injection_store_release(void *word, uintptr_t value) {
  atomic_store_explicit((_Atomic(uintptr_t) *)word, value, memory_order_release);
}

// MARK: - The published table of global values

/// The address of the current table of keys that have a global value, or 0 while no key has
/// ever been set globally; see `GlobalValues.swift`.
extern _Atomic(uintptr_t) injection_global_table;

/// Loads the address of the current table of global values, with acquire ordering.
static inline uintptr_t injection_global_table_load(void) {
  return atomic_load_explicit(&injection_global_table, memory_order_acquire);
}

/// Publishes `table` as the current table of global values, with release ordering.
static inline void injection_global_table_store(uintptr_t table) {
  atomic_store_explicit(&injection_global_table, table, memory_order_release);
}

// MARK: - Layers of snapshot writes

/// A counter of the layers given to writes to snapshots; see `OverrideSite.layer`.
extern _Atomic(uint32_t) injection_snapshot_layer_count;

/// Returns a layer number not given to any other snapshot's writes yet (it wraps after 2^30).
static inline uint32_t injection_next_snapshot_layer(void) {
  return (atomic_fetch_add_explicit(&injection_snapshot_layer_count, 1, memory_order_relaxed) + 1)
    & 0x3FFFFFFF;
}

// MARK: - The thread's context

/// The innermost context frame of the current thread; see `ContextFrame.swift`.
extern _Thread_local void *injection_thread_context;

/// Returns the current thread's innermost context frame, or NULL.
static inline void *injection_context_get(void) { return injection_thread_context; }

/// Makes `frame` (or NULL) the current thread's innermost context frame.
static inline void injection_context_set(void *frame) { injection_thread_context = frame; }

#endif
