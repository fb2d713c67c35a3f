#include "CInjectionSupport.h"

#include <pthread.h>
#include <sched.h>

injection_reader_stripe injection_reader_stripes[64];
_Atomic(uintptr_t) injection_read_parity = 0;

void injection_global_read_end(void *counter) {
  atomic_fetch_sub_explicit((_Atomic(uintptr_t) *)counter, 1, memory_order_release);
}

// One drain at a time: each flips the parity twice, so between drains it is 0.
static pthread_mutex_t drain_lock = PTHREAD_MUTEX_INITIALIZER;

static void wait_for_sections(uintptr_t parity) {
  for (int index = 0; index < 64; index++) {
    _Atomic(uintptr_t) *counter = &injection_reader_stripes[index].count[parity];
    while (atomic_load_explicit(counter, memory_order_seq_cst) != 0) sched_yield();
  }
}

// Why it is enough. A section loads the parity, increments that counter, then loads the box; the
// writer exchanged the box before this call, and all of these are sequentially consistent. A
// section that loaded parity 1 did so after the first flip, so it loads the new box. One that
// loaded parity 0 either incremented its counter before the first wait read it, and is waited
// for, or after, and then it loads the new box. New sections use the other counter while one is
// waited for, so neither wait can starve.
void injection_global_readers_drain(void) {
  pthread_mutex_lock(&drain_lock);
  atomic_store_explicit(&injection_read_parity, 1, memory_order_seq_cst);
  wait_for_sections(0);
  atomic_store_explicit(&injection_read_parity, 0, memory_order_seq_cst);
  wait_for_sections(1);
  pthread_mutex_unlock(&drain_lock);
}
