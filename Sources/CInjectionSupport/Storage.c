#include "CInjectionSupport.h"

#include <pthread.h>
#if !defined(__APPLE__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

_Thread_local void *injection_thread_context = 0;
_Atomic(uintptr_t) injection_global_head = 0;
_Atomic(uint32_t) injection_snapshot_layer_count = 0;

// 0 until asked, then 1 on the main thread and -1 on any other.
static _Thread_local signed char thread_is_main = 0;

int injection_is_main_thread(void) {
  if (thread_is_main == 0) {
#if defined(__APPLE__)
    thread_is_main = pthread_main_np() != 0 ? 1 : -1;
#else
    thread_is_main = syscall(SYS_gettid) == getpid() ? 1 : -1;
#endif
  }
  return thread_is_main > 0;
}
