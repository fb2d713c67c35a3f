// Counts the calls a process makes to the allocator and to the pthread locking functions, and
// prints the totals to stderr when it exits. Loaded with LD_PRELOAD by debug-reads.sh (glibc
// only): two runs of a case with different operation counts give the calls per operation.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static _Atomic(unsigned long) allocations, mutex_locks, rwlock_locks;

void *malloc(size_t size) {
  atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
  return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
  atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
  return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
  atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
  return __libc_realloc(pointer, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
  atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
  *result = __libc_memalign(alignment, size);
  return *result ? 0 : 12;  // ENOMEM
}

void *aligned_alloc(size_t alignment, size_t size) {
  atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
  return __libc_memalign(alignment, size);
}

// The real locking functions, found on first use.
#define FORWARD(name, counter, type)                                    \
  int name(type *lock) {                                                \
    static int (*real)(type *);                                         \
    if (!real) real = (int (*)(type *))dlsym(RTLD_NEXT, #name);         \
    atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed);       \
    return real(lock);                                                  \
  }

FORWARD(pthread_mutex_lock, mutex_locks, pthread_mutex_t)
FORWARD(pthread_rwlock_rdlock, rwlock_locks, pthread_rwlock_t)
FORWARD(pthread_rwlock_wrlock, rwlock_locks, pthread_rwlock_t)

__attribute__((destructor)) static void report(void) {
  fprintf(stderr, "counting-shim: allocations %lu mutex-locks %lu rwlock-locks %lu\n",
          atomic_load(&allocations), atomic_load(&mutex_locks), atomic_load(&rwlock_locks));
}
