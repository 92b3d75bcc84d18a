// SPDX-License-Identifier: GPL-3.0-or-later
// Swift concurrency's global-executor hook, set from Swift (AnnounceDaemon's EventLoopExecutor).
#ifndef C_CONCURRENCY_HOOK_H
#define C_CONCURRENCY_HOOK_H

#include <stdbool.h>

/// Sets the Swift runtime's `swift_task_enqueueGlobal_hook` to `hook` (a Swift function of the
/// hook's type, as a raw pointer) if no hook is set yet; false if one was. Atomic.
bool CConcurrencyHook_install_enqueue_global(const void *hook);

#endif
