#include "CInjectionSupport.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

// The record of one thread. The owner writes every field but `next` with relaxed stores, framed
// by `sequence` as a sequence lock: odd while it writes, even once done; a reader that loads the
// same even value before and after copying has a consistent copy.
struct injection_chain {
  // The read epoch while the owner is in a read section of a global value, 0 otherwise. 64 bits
  // on every platform, so that the epoch never wraps around to 0, which means "not reading".
  _Atomic(uint64_t) reading;
  _Atomic(uintptr_t) sequence;
  _Atomic(uintptr_t) depth;
  _Atomic(uintptr_t) keys[INJECTION_CHAIN_CAPACITY];
  _Atomic(uintptr_t) cells[INJECTION_CHAIN_CAPACITY];
  // 1 while a thread owns the record, 0 once its thread has exited.
  _Atomic(uintptr_t) owned;
  // Written once, before the record is linked in.
  _Atomic(injection_chain *) next;
} __attribute__((aligned(128)));  // no cache line shared with another thread's record

static _Atomic(injection_chain *) chains = NULL;
static _Thread_local injection_chain *own_chain = NULL;
_Thread_local void *injection_reader_slot = NULL;
_Atomic(uint64_t) injection_read_epoch = 1;
_Atomic(uintptr_t) injection_unrecorded_readers = 0;
static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

// Runs when a thread that owns a record exits: the record is free for the next new thread.
static void release_chain(void *chain) {
  injection_chain *record = chain;
  own_chain = NULL;  // a read by a later destructor of this thread claims a record again
  injection_reader_slot = NULL;
  atomic_store_explicit(&record->depth, 0, memory_order_relaxed);
  atomic_store_explicit(&record->owned, 0, memory_order_release);
}

static void make_exit_key(void) { pthread_key_create(&exit_key, release_chain); }

// Gives the current thread a record: a free one of the list, else a new one.
static injection_chain *claim_chain(void) {
  pthread_once(&exit_key_once, make_exit_key);
  injection_chain *record = atomic_load_explicit(&chains, memory_order_acquire);
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
    if (posix_memalign(&memory, _Alignof(injection_chain), sizeof(injection_chain)) != 0) {
      return NULL;
    }
    record = memset(memory, 0, sizeof(injection_chain));
    atomic_store_explicit(&record->owned, 1, memory_order_relaxed);
    injection_chain *head = atomic_load_explicit(&chains, memory_order_relaxed);
    do {
      atomic_store_explicit(&record->next, head, memory_order_relaxed);
    } while (!atomic_compare_exchange_weak_explicit(
        &chains, &head, record, memory_order_release, memory_order_relaxed));
    // Orders the link before this thread's first read section in the single total order, as the
    // drain's fence orders its epoch before its walk: a drain that misses the new record cannot
    // have missed a section of this thread that loaded a box before the drain's exchange.
    atomic_thread_fence(memory_order_seq_cst);
  }
  if (pthread_setspecific(exit_key, record) != 0) {
    atomic_store_explicit(&record->owned, 0, memory_order_release);
    return NULL;
  }
  own_chain = record;
  injection_reader_slot = &record->reading;
  return record;
}

void *injection_reader_claim(void) {
  if (!own_chain && !claim_chain()) return NULL;
  return injection_reader_slot;
}

void injection_global_readers_drain(void) {
  uint64_t epoch = atomic_fetch_add_explicit(&injection_read_epoch, 1, memory_order_seq_cst);
  atomic_thread_fence(memory_order_seq_cst);  // see `claim_chain`
  // A section that stamped a later epoch started after the exchange: it loaded the new box.
  injection_chain *record = atomic_load_explicit(&chains, memory_order_acquire);
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

// Starts a change of the current thread's record; returns the sequence number to end it with.
static inline uintptr_t begin_change(injection_chain *record) {
  uintptr_t sequence = atomic_load_explicit(&record->sequence, memory_order_relaxed);
  atomic_store_explicit(&record->sequence, sequence + 1, memory_order_relaxed);
  atomic_thread_fence(memory_order_release);
  return sequence + 2;
}

int injection_chain_push(uintptr_t key, uintptr_t cell) {
  int claimed = 0;
  injection_chain *record = own_chain;
  if (!record) {
    record = claim_chain();
    if (!record) return -1;
    claimed = 1;
  }
  uintptr_t end = begin_change(record);
  uintptr_t depth = atomic_load_explicit(&record->depth, memory_order_relaxed);
  if (depth < INJECTION_CHAIN_CAPACITY) {
    atomic_store_explicit(&record->keys[depth], key, memory_order_relaxed);
    atomic_store_explicit(&record->cells[depth], cell, memory_order_relaxed);
  }
  atomic_store_explicit(&record->depth, depth + 1, memory_order_relaxed);
  atomic_store_explicit(&record->sequence, end, memory_order_release);
  return claimed;
}

void injection_chain_pop(void) {
  injection_chain *record = own_chain;
  if (!record) return;  // its push could not allocate a record
  uintptr_t depth = atomic_load_explicit(&record->depth, memory_order_relaxed);
  if (depth == 0) return;  // likewise, for a push before a later one claimed the record
  uintptr_t end = begin_change(record);
  atomic_store_explicit(&record->depth, depth - 1, memory_order_relaxed);
  atomic_store_explicit(&record->sequence, end, memory_order_release);
}

injection_chain *injection_chain_first(void) {
  return atomic_load_explicit(&chains, memory_order_acquire);
}

injection_chain *injection_chain_next(injection_chain *chain) {
  return atomic_load_explicit(&chain->next, memory_order_acquire);
}

long injection_chain_read(
    injection_chain *chain, uintptr_t *keys, uintptr_t *cells, uintptr_t *sequence) {
  uintptr_t before = atomic_load_explicit(&chain->sequence, memory_order_acquire);
  if (before & 1) return -1;
  if (atomic_load_explicit(&chain->owned, memory_order_relaxed) == 0) return 0;
  uintptr_t depth = atomic_load_explicit(&chain->depth, memory_order_relaxed);
  uintptr_t count = depth < INJECTION_CHAIN_CAPACITY ? depth : INJECTION_CHAIN_CAPACITY;
  for (uintptr_t index = 0; index < count; index++) {
    keys[index] = atomic_load_explicit(&chain->keys[index], memory_order_relaxed);
    cells[index] = atomic_load_explicit(&chain->cells[index], memory_order_relaxed);
  }
  atomic_thread_fence(memory_order_acquire);
  if (atomic_load_explicit(&chain->sequence, memory_order_relaxed) != before) return -1;
  *sequence = before;
  return (long)depth;
}

static void *run_body(void *body) {
  ((void (*)(void))body)();
  return NULL;
}

int injection_start_thread(void (*body)(void)) {
  pthread_t thread;
  pthread_attr_t attributes;
  if (pthread_attr_init(&attributes) != 0) return -1;
  pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
  int status = pthread_create(&thread, &attributes, run_body, (void *)body);
  pthread_attr_destroy(&attributes);
  return status;
}
