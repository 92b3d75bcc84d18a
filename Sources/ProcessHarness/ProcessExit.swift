// SPDX-License-Identifier: GPL-3.0-or-later
import AnnouncePOSIX
public import Foundation
import Glibc

extension Process {
    /// Blocks until the process has exited and Foundation has recorded its status.
    ///
    /// Unlike `waitUntilExit()`, this runs no CFRunLoop on the calling thread. A thread that ran
    /// one has a run-loop finalizer at thread exit, and that finalizer crashes the process under
    /// ThreadSanitizer (it allocates after TSan has torn the thread down), which aborted
    /// `make tsan`. `waitid` with `WNOWAIT` waits for the exit without reaping the child, so
    /// Foundation's own reaping is left undisturbed.
    public func waitForExit() {
        var info = siginfo_t()
        _ = retryingOnInterrupt { waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOWAIT) }
        // Foundation reaps the child and sets its status on its own thread right after.
        while isRunning { sched_yield() }
    }
}
