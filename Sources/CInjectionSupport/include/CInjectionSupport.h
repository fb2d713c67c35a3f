// What the Injection module needs and Swift's standard library does not offer on every platform
// the package declares (macOS 10.15, iOS 13, tvOS 13, watchOS 6, Linux): words that are loaded
// and stored atomically, thread-local storage (the thread's context slot, whether it is the main
// thread, and per-thread records of global reads).
//
// What is read on hot paths is `static inline`, so Swift inlines it into its callers. C11's <stdatomic.h> and
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

/// Loads `*word` as part of the single total order of sequentially consistent operations.
static inline uintptr_t injection_load_seq_cst(const void *word) {
  return atomic_load_explicit((const _Atomic(uintptr_t) *)word, memory_order_seq_cst);
}

/// Stores `value` in `*word` and returns what it held, sequentially consistently.
static inline uintptr_t injection_exchange(void *word, uintptr_t value) {
  return atomic_exchange_explicit((_Atomic(uintptr_t) *)word, value, memory_order_seq_cst);
}

/// Stores `desired` in `*word` if it holds `expected`, and says whether it did: with acquire and
/// release ordering if it did, acquire ordering if not.
static inline _Bool injection_compare_exchange(void *word, uintptr_t expected, uintptr_t desired) {
  return atomic_compare_exchange_strong_explicit(
      (_Atomic(uintptr_t) *)word, &expected, desired, memory_order_acq_rel, memory_order_acquire);
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

// MARK: - The order of builds

/// A counter of the values built on first use, in the order their builds end; see `LazyCell`.
extern _Atomic(uintptr_t) injection_build_count;

/// Returns a number greater than that of every build that ended before this call.
static inline uintptr_t injection_next_build_order(void) {
  return atomic_fetch_add_explicit(&injection_build_count, 1, memory_order_relaxed) + 1;
}

// MARK: - The thread's context

/// The innermost context frame of the current thread; see `ContextFrame.swift`.
extern _Thread_local void *injection_thread_context;

/// Returns the current thread's innermost context frame, or NULL.
static inline void *injection_context_get(void) { return injection_thread_context; }

/// Makes `frame` (or NULL) the current thread's innermost context frame.
static inline void injection_context_set(void *frame) { injection_thread_context = frame; }

// MARK: - The thread's spare update builder

/// Where a thread keeps its spare `UpdateBuilder` (retained), if any; see `UpdateBuilder.swift`.
/// A cell of its own rather than a thread-local variable, so that the destructor that releases
/// the spare when the thread exits, which is given the cell, never reads a thread-local variable:
/// on some platforms those may be gone by then.
typedef struct {
  void *builder;
} injection_spare_cell;

/// The current thread's cell, or NULL until the thread's first spare.
extern _Thread_local injection_spare_cell *injection_spare;

/// Makes `cell` (or NULL) the current thread's cell.
static inline void injection_spare_set_cell(injection_spare_cell *cell) { injection_spare = cell; }

/// Takes the current thread's spare builder (retained), leaving none, or returns NULL.
static inline void *injection_spare_builder_take(void) {
  injection_spare_cell *cell = injection_spare;
  if (!cell) return 0;
  void *spare = cell->builder;
  cell->builder = 0;
  return spare;
}

/// Makes `builder` (retained) the current thread's spare: returns 1 if it did, 0 if the thread
/// has a spare already, -1 if it has no cell yet.
static inline int injection_spare_builder_put(void *builder) {
  injection_spare_cell *cell = injection_spare;
  if (!cell) return -1;
  if (cell->builder) return 0;
  cell->builder = builder;
  return 1;
}

// MARK: - The main thread

/// The current thread's answer to "is this the main thread?": 0 until asked, then 1 or -1.
extern _Thread_local signed char injection_thread_is_main;

/// Asks the system whether the current thread is the process's main thread (`pthread_main_np`
/// on Darwin, the thread id against the process id on Linux), and records the answer.
int injection_thread_is_main_ask(void);

/// Returns 1 on the process's main thread, 0 on any other: the system is asked once per
/// thread, then the answer is one thread-local load.
static inline int injection_is_main_thread(void) {
  signed char known = injection_thread_is_main;
  if (__builtin_expect(known != 0, 1)) return known > 0;
  return injection_thread_is_main_ask();
}

// MARK: - Read sections of global values
//
// A read of a global value copies it out of its box without retaining the box, between
// `injection_global_read_begin` and `injection_global_read_end`: a read section, which runs no
// user code and never nests. It writes only a word of the thread's own record. A writer that
// replaces a box calls `injection_global_readers_drain` before it releases the old one, which
// waits until every read section that could have loaded it has ended. See `GlobalValues.swift`.

/// The current read epoch: starts at 1, advanced by every drain. 64 bits on every platform, so
/// that it never wraps around to 0, which a section's word holds when it is not reading.
extern _Atomic(uint64_t) injection_read_epoch;

/// The current thread's read-section word (in its record, see `Readers.c`), or NULL before its
/// first read.
extern _Thread_local void *injection_reader_slot;

/// Read sections of threads that could not get a record, which a drain waits for as a whole.
extern _Atomic(uintptr_t) injection_unrecorded_readers;

/// Gives the current thread its record and returns its read-section word, or NULL if no
/// record could be allocated.
void *injection_reader_claim(void);

/// Starts a read section; returns what `injection_global_read_end` needs.
static inline void *injection_global_read_begin(void) {
  void *slot = injection_reader_slot;
  if (__builtin_expect(slot == 0, 0)) slot = injection_reader_claim();
  if (__builtin_expect(slot == 0, 0)) {
    atomic_fetch_add_explicit(&injection_unrecorded_readers, 1, memory_order_seq_cst);
    return 0;
  }
  uint64_t epoch = atomic_load_explicit(&injection_read_epoch, memory_order_acquire);
  // Sequentially consistent: a drain that follows the exchange of a box sees this store if
  // this section's load of the box came before the exchange.
  atomic_store_explicit((_Atomic(uint64_t) *)slot, epoch, memory_order_seq_cst);
  return slot;
}

/// Ends the read section that `injection_global_read_begin` returned `slot` for.
static inline void injection_global_read_end(void *slot) {
  if (__builtin_expect(slot == 0, 0)) {
    atomic_fetch_sub_explicit(&injection_unrecorded_readers, 1, memory_order_release);
    return;
  }
  atomic_store_explicit((_Atomic(uint64_t) *)slot, 0, memory_order_release);
}

/// Waits until every read section that started before this call has ended. Call it after
/// exchanging a box (`injection_exchange`) and before releasing the old box.
void injection_global_readers_drain(void);

#endif
