#include "CInjectionSupport.h"

_Thread_local void *injection_thread_context = 0;

_Atomic(uintptr_t) injection_global_table = 0;

_Atomic(uint32_t) injection_snapshot_layer_count = 0;
