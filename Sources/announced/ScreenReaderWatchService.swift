// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import DesktopBus
import Logging
import ServiceLifecycle

/// The desktop's screen reader status as a service of the daemon's group: it watches
/// `org.a11y.Status.ScreenReaderEnabled` on the session bus (``ScreenReaderStatus``) and hands
/// each value to the dispatcher in a turn (``Dispatcher/screenReaderChanged(_:)``), so `status`
/// carries `screen_reader` and `status` subscribers hear `status-changed` when it flips.
///
/// Its one bus connection is opened here and closed on graceful shutdown. Without a session bus,
/// or without at-spi2-core on it, it logs one line, the status stays false, and it idles until
/// shutdown: the rest of the daemon does not need the desktop.
struct ScreenReaderWatchService: Service {
    let dispatcher: Dispatcher
    let logger: Logger

    func run() async {
        let session: BusConnection
        do {
            session = try BusConnection.session()
        } catch {
            logger.notice("screen_reader is false: \(error)")
            try? await gracefulShutdown()
            return
        }
        await withGracefulShutdownHandler {
            await follow(session)
        } onGracefulShutdown: {
            session.close()
        }
        session.close()
        try? await gracefulShutdown()
    }

    /// Reports the status and each change until the connection closes (shutdown, or the bus gone).
    private func follow(_ session: BusConnection) async {
        let changes: AsyncStream<Bool>
        do {
            let watched = try await ScreenReaderStatus.watch(on: session)
            logger.info(
                "screen reader status followed on the session bus", metadata: ["running": "\(watched.isEnabled)"])
            await report(watched.isEnabled)
            changes = watched.changes
        } catch DesktopBusError.closed {
            return
        } catch {
            logger.notice(
                "screen_reader is false: cannot read org.a11y.Status on the session bus (\(error)); install at-spi2-core, or run announced inside a desktop session"
            )
            return
        }
        for await running in changes {
            logger.info("screen reader status changed", metadata: ["running": "\(running)"])
            await report(running)
        }
        // The stream ends with the connection: at shutdown, or when the session bus went away.
        guard !Task.isShuttingDownGracefully else { return }
        logger.notice("screen_reader is false: the session bus went away")
        await report(false)
    }

    private func report(_ running: Bool) async {
        await dispatcher.inTurn { $0.screenReaderChanged(running) }
    }
}
