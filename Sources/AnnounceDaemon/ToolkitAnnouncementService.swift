// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import DaemonConfiguration
import DesktopBus
import Logging
import ServiceLifecycle

/// The bus front end: toolkit announcements (AT-SPI `object:announcement`, from GTK, Qt, ATK
/// apps) spoken as posts, as a service of the daemon's group beside the socket front ends.
///
/// It connects to the accessibility bus whose address the session bus gives, registers for the
/// announcements, and hands each to ``ToolkitAnnouncementClients`` unless its application is in
/// `toolkit_announcements_ignore` or, with `auto`, a screen reader runs (which speaks them
/// itself). Without a session bus (``DesktopSession`` said so) or an accessibility bus it logs
/// one line and waits for the daemon's shutdown; nothing else depends on it.
struct ToolkitAnnouncementService: Service {
    let mode: ToolkitAnnouncementsSetting
    let ignored: Set<String>
    let session: DesktopSession
    let clients: ToolkitAnnouncementClients
    let logger: Logger

    func run() async {
        guard mode != .off, let connection = session.connection else {
            try? await gracefulShutdown()
            return
        }
        let bus: AccessibilityBus
        let announcements: ToolkitAnnouncements
        do {
            bus = try await AccessibilityBus.connect(session: connection)
            announcements = try await bus.announcements()
        } catch {
            logger.notice("toolkit announcements are not spoken: \(error)")
            try? await gracefulShutdown()
            return
        }
        defer { bus.close() }
        logger.info(
            "toolkit announcements: listening on the accessibility bus",
            metadata: ["mode": "\(mode.rawValue)", "bus": "\(bus.connection.name)"])
        var clients = self.clients
        var orca = OrcaProcesses()
        for await announcement in announcements.cancelOnGracefulShutdown() {
            let name = ToolkitAnnouncementClients.clientName(of: announcement)
            if ignored.contains(announcement.application) {
                logger.debug(
                    "toolkit announcement ignored: its application is in toolkit_announcements_ignore",
                    metadata: ["client": "\(name)"])
                continue
            }
            if mode == .auto {
                var screenReaderRuns = await session.isScreenReaderEnabled()
                if !screenReaderRuns { screenReaderRuns = await orca.isRunning() }
                if screenReaderRuns {
                    logger.debug("toolkit announcement left to the screen reader", metadata: ["client": "\(name)"])
                    continue
                }
            }
            if let refused = clients.post(announcement) {
                logger.notice("toolkit announcement not spoken: \(refused)", metadata: ["client": "\(name)"])
            }
        }
        guard !Task.isShuttingDownGracefully else { return }
        logger.notice("the accessibility bus went away: toolkit announcements are no longer spoken")
        try? await gracefulShutdown()
    }
}
