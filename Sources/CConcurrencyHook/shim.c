// SPDX-License-Identifier: GPL-3.0-or-later
// See include/CConcurrencyHook.h.
#include "CConcurrencyHook.h"

#include <stddef.h>

/* The Swift runtime's hook for its global executor (swift/Runtime/Concurrency.h):
 *   SWIFT_EXPORT_FROM(swift_Concurrency) SWIFT_CC(swift)
 *   void (*swift_task_enqueueGlobal_hook)(Job *job, swift_task_enqueueGlobal_original original);
 * Only the variable's address is used here, so it is declared as the pointer it holds. Named
 * here, the link resolves it: against libswift_Concurrency.so in a debug build, and inside the
 * executable in the release build, whose static runtime keeps it out of the dynamic symbol table
 * (so dlsym, which NIO's own installer uses, finds nothing there). */
extern void *swift_task_enqueueGlobal_hook;

_Static_assert(sizeof(void *) == sizeof(void (*)(void)), "a function pointer is not the size of a data pointer");

bool CConcurrencyHook_install_enqueue_global(const void *hook) {
    void *expected = NULL;
    return __atomic_compare_exchange_n(
        &swift_task_enqueueGlobal_hook, &expected, (void *)hook, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}
