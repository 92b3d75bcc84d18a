// SPDX-License-Identifier: GPL-3.0-or-later
import NIOCore
import NIOPosix

/// Sleeping in the daemon's tasks without waking libdispatch.
///
/// The daemon's tasks run on NIO's singleton event loops (`announced` installs them as Swift
/// concurrency's global executor). `Task.sleep` would still arm its timer on libdispatch's global
/// queue, and the first job there starts libdispatch's pool monitor, which wakes the process once
/// a second for the rest of its life. This sleep is a timer of the event loop instead, so an idle
/// daemon sleeps.
enum EventLoopSleep {
    /// Sleeps `duration` on one of NIO's singleton event loops; throws `CancellationError` at
    /// once when the task is cancelled, before or during the sleep.
    static func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        let scheduled = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: TimeAmount(duration)) {}
        do {
            try await withTaskCancellationHandler {
                try await scheduled.futureResult.get()
            } onCancel: {
                scheduled.cancel()
            }
        } catch EventLoopError.cancelled {
            throw CancellationError()
        }
    }
}
