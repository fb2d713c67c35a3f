// What the Injection module needs and Swift's standard library does not offer on every platform
// the package declares (macOS 10.15, iOS 13, tvOS 13, watchOS 6, Linux): words loaded and stored
// atomically, and thread-local storage (the thread's context slot, whether it is the main thread).
// C11's <stdatomic.h> and `_Thread_local` are part of every C compiler that builds Swift packages
// and need no availability check on Apple platforms. What Swift calls on every read is `static
// inline`, so that it is compiled into its callers.
#ifndef C_INJECTION_SUPPORT_H
#define C_INJECTION_SUPPORT_H

#include <stdatomic.h>
#include <stdint.h>

// MARK: - Counters

/// The address of the head of the global values' chain, or 0 while no key has a global value; see
/// `GlobalValues.swift`.
extern _Atomic(uintptr_t) injection_global_head;

/// Loads the address of the head of the global values' chain, sequentially consistently.
static inline uintptr_t injection_global_head_load(void) {
  return atomic_load_explicit(&injection_global_head, memory_order_seq_cst);
}

/// Publishes `head` as the head of the global values' chain, and returns the one it replaces,
/// sequentially consistently.
static inline uintptr_t injection_global_head_exchange(uintptr_t head) {
  return atomic_exchange_explicit(&injection_global_head, head, memory_order_seq_cst);
}

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

/// Returns 1 on the process's main thread, 0 on any other (`pthread_main_np` on Darwin, the
/// thread id against the process id on Linux). The system is asked once per thread.
int injection_is_main_thread(void);

// MARK: - Read sections of global values
//
// A reader copies a global value out of its box without retaining the box, inside a read
// section: `injection_global_read_begin`, then the copy, then `injection_global_read_end`. A
// section runs no user code and never nests. It counts itself in one of two counters (the current
// parity) of a stripe picked by the thread, so readers on different threads seldom share a cache
// line. A writer that replaced a box calls `injection_global_readers_drain` before it releases the
// old one: see `Readers.c` and `GlobalValues.swift`.

typedef struct {
  _Atomic(uintptr_t) count[2];
} __attribute__((aligned(128))) injection_reader_stripe;

/// The stripes; 64 of them, each on a cache line of its own.
extern injection_reader_stripe injection_reader_stripes[64];
/// Which counter of each stripe new read sections use: 0, except while a drain runs.
extern _Atomic(uintptr_t) injection_read_parity;

/// Starts a read section; returns the counter that `injection_global_read_end` decrements.
static inline void *injection_global_read_begin(void) {
  uintptr_t thread = (uintptr_t)&injection_thread_context;  // an address of this thread's own
  injection_reader_stripe *stripe = &injection_reader_stripes[(thread * 0x9E3779B1u >> 16) & 63];
  uintptr_t parity = atomic_load_explicit(&injection_read_parity, memory_order_seq_cst);
  _Atomic(uintptr_t) *counter = &stripe->count[parity];
  atomic_fetch_add_explicit(counter, 1, memory_order_seq_cst);
  return (void *)counter;
}

/// Ends the read section that `injection_global_read_begin` returned `counter` for. Not inline:
/// a call the compiler cannot see into, so that nothing the section did, the retain of the value
/// copied out included, is moved past it.
void injection_global_read_end(void *counter);

/// Waits until every read section that started before this call has ended.
void injection_global_readers_drain(void);

#endif
