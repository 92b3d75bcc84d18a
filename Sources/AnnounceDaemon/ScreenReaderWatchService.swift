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
/// It watches on the daemon's one session bus connection (``DesktopSession``, shared with the
/// toolkit announcements' bus front end), records each value there too (their `auto`), and
/// closes the connection on graceful shutdown. Without a session bus (``DesktopSession`` logged
/// it) the status stays false, and it idles until shutdown: the rest of the daemon does not need
/// the desktop. Without at-spi2-core on the bus it logs one line, and follows `org.a11y.Bus` when
/// it comes (at-spi2-core started later, or restarted).
struct ScreenReaderWatchService: Service {
    let desktop: DesktopSession
    let dispatcher: Dispatcher
    let logger: Logger

    func run() async {
        guard let session = desktop.connection else {
            desktop.record(false)
            try? await gracefulShutdown()
            return
        }
        await withGracefulShutdownHandler {
            await follow(session)
        } onGracefulShutdown: {
            session.close()
        }
        session.close()
        desktop.record(false)
        try? await gracefulShutdown()
    }

    /// Reports the status and each change until the connection closes (shutdown, or the bus
    /// gone); reads it again each time `org.a11y.Bus` gets a new owner.
    private func follow(_ session: BusConnection) async {
        let owners: AsyncStream<Bool>
        do {
            owners = try await ownerChanges(on: session)
        } catch {
            logger.notice("screen_reader is false: the session bus refused a match rule (\(error))")
            desktop.record(false)
            return
        }
        await withTaskGroup(of: Void.self) { group in
            var watching = false
            if let changes = await watch(session) {
                watching = true
                group.addTask { await forward(changes) }
            }
            for await present in owners {
                if !present {
                    logger.notice("screen_reader is false: org.a11y.Bus (at-spi2-core) left the session bus")
                    await report(false)
                } else if watching {
                    if let running = try? await ScreenReaderStatus.isEnabled(on: session) { await report(running) }
                } else if let changes = await watch(session) {
                    watching = true
                    group.addTask { await forward(changes) }
                }
            }
        }
        // The streams end with the connection: at shutdown, or when the session bus went away.
        guard !Task.isShuttingDownGracefully else { return }
        logger.notice("screen_reader is false: the session bus went away")
        await report(false)
    }

    /// Starts watching `ScreenReaderEnabled` and reports its value; nil, after one log line, when
    /// it cannot be read (no at-spi2-core on the bus).
    private func watch(_ session: BusConnection) async -> ScreenReaderStatus.Changes? {
        do {
            let watched = try await ScreenReaderStatus.watch(on: session)
            logger.info(
                "screen reader status followed on the session bus", metadata: ["running": "\(watched.isEnabled)"])
            await report(watched.isEnabled)
            return watched.changes
        } catch DesktopBusError.closed {
            return nil
        } catch {
            logger.notice(
                "screen_reader is false: cannot read org.a11y.Status on the session bus (\(error)); install at-spi2-core, or run announced inside a desktop session"
            )
            desktop.record(false)
            return nil
        }
    }

    private func forward(_ changes: ScreenReaderStatus.Changes) async {
        for await running in changes {
            logger.info("screen reader status changed", metadata: ["running": "\(running)"])
            await report(running)
        }
    }

    /// Whether `org.a11y.Bus` has an owner, each time that changes (`NameOwnerChanged`).
    private func ownerChanges(on session: BusConnection) async throws -> AsyncStream<Bool> {
        let (owners, continuation) = AsyncStream.makeStream(of: Bool.self)
        _ = try await session.addMatch(
            "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
                + "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='org.a11y.Bus'",
            handler: { signal in
                guard (try? signal.readString()) != nil, (try? signal.readString()) != nil,
                    let owner = try? signal.readString()
                else { return }
                continuation.yield(!owner.isEmpty)
            },
            finished: { continuation.finish() }
        )
        return owners
    }

    private func report(_ running: Bool) async {
        desktop.record(running)
        await dispatcher.inTurn { $0.screenReaderChanged(running) }
    }
}
