#include "CInjectionSupport.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

// One thread's record of its read sections of global values (see `injection_global_read_begin`).
// Records are allocated once per thread, linked into a list that only grows (by CAS), and handed
// to a new thread once their thread has exited, so the list is as long as the most threads that
// ever read a global value at once. A drain walks the list.
typedef struct reader_record {
  // The read epoch while the owner is in a read section, 0 otherwise. 64 bits on every platform,
  // so that the epoch never wraps around to 0, which means "not reading".
  _Atomic(uint64_t) reading;
  // 1 while a thread owns the record, 0 once its thread has exited.
  _Atomic(uintptr_t) owned;
  // Written once, before the record is linked in.
  _Atomic(struct reader_record *) next;
} __attribute__((aligned(128))) reader_record;  // no cache line shared with another record

static _Atomic(reader_record *) records = NULL;
_Thread_local void *injection_reader_slot = NULL;
_Atomic(uint64_t) injection_read_epoch = 1;
_Atomic(uintptr_t) injection_unrecorded_readers = 0;
static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

// Runs when a thread that owns a record exits: the record is free for the next new thread.
static void release_record(void *record) {
  injection_reader_slot = NULL;  // a read by a later destructor of this thread claims one again
  atomic_store_explicit(&((reader_record *)record)->owned, 0, memory_order_release);
}

static void make_exit_key(void) { pthread_key_create(&exit_key, release_record); }

void *injection_reader_claim(void) {
  pthread_once(&exit_key_once, make_exit_key);
  reader_record *record = atomic_load_explicit(&records, memory_order_acquire);
  for (; record; record = atomic_load_explicit(&record->next, memory_order_acquire)) {
    uintptr_t free = 0;
    if (atomic_load_explicit(&record->owned, memory_order_relaxed) == 0 &&
        atomic_compare_exchange_strong_explicit(
            &record->owned, &free, 1, memory_order_acquire, memory_order_relaxed)) {
      break;
    }
  }
  if (!record) {
    void *memory = NULL;
    if (posix_memalign(&memory, _Alignof(reader_record), sizeof(reader_record)) != 0) {
      return NULL;
    }
    record = memset(memory, 0, sizeof(reader_record));
    atomic_store_explicit(&record->owned, 1, memory_order_relaxed);
    reader_record *head = atomic_load_explicit(&records, memory_order_relaxed);
    do {
      atomic_store_explicit(&record->next, head, memory_order_relaxed);
    } while (!atomic_compare_exchange_weak_explicit(
        &records, &head, record, memory_order_release, memory_order_relaxed));
    // Orders the link before this thread's first read section in the single total order, as the
    // drain's fence orders its epoch before its walk: a drain that misses the new record cannot
    // have missed a section of this thread that loaded a box before the drain's exchange.
    atomic_thread_fence(memory_order_seq_cst);
  }
  if (pthread_setspecific(exit_key, record) != 0) {
    atomic_store_explicit(&record->owned, 0, memory_order_release);
    return NULL;
  }
  injection_reader_slot = &record->reading;
  return injection_reader_slot;
}

void injection_global_readers_drain(void) {
  uint64_t epoch = atomic_fetch_add_explicit(&injection_read_epoch, 1, memory_order_seq_cst);
  atomic_thread_fence(memory_order_seq_cst);  // see `injection_reader_claim`
  // A section that stamped a later epoch started after the exchange: it loaded the new box.
  reader_record *record = atomic_load_explicit(&records, memory_order_acquire);
  for (; record; record = atomic_load_explicit(&record->next, memory_order_acquire)) {
    for (;;) {
      uint64_t reading = atomic_load_explicit(&record->reading, memory_order_seq_cst);
      if (reading == 0 || reading > epoch) break;
      sched_yield();
    }
  }
  while (atomic_load_explicit(&injection_unrecorded_readers, memory_order_seq_cst) != 0) {
    sched_yield();
  }
}
