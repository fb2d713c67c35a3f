#include "CInjectionSupport.h"

#include <pthread.h>
#if !defined(__APPLE__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

_Thread_local void *injection_thread_context = 0;
_Thread_local injection_spare_cell *injection_spare = 0;

_Atomic(uintptr_t) injection_global_table = 0;

_Atomic(uint32_t) injection_snapshot_layer_count = 0;
_Atomic(uintptr_t) injection_build_count = 0;

_Thread_local signed char injection_thread_is_main = 0;

int injection_thread_is_main_ask(void) {
#if defined(__APPLE__)
  int is_main = pthread_main_np() != 0;
#else
  int is_main = syscall(SYS_gettid) == getpid();
#endif
  injection_thread_is_main = is_main ? 1 : -1;
  return is_main;
}
