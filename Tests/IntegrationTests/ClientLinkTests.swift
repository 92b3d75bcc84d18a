// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceClient
import BlockingThreads
import CAnnounceLinux
import Foundation
import TestSupport
import Testing

/// The descriptors of this process connected to `daemon`: the sockets whose peer, as
/// `SO_PEERCRED` recorded it at the connect, is the daemon's process (each test starts its own
/// daemon, so other tests' connections never count).
private func connections(to daemon: DaemonProcess) -> [Int32] {
    connections(toProcess: daemon.process.processIdentifier)
}

/// The descriptors of this process connected to the process `pid`.
private func connections(toProcess pid: Int32) -> [Int32] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return names.compactMap(Int32.init).filter { descriptor in
        var credentials = CAnnounceLinux_ucred()
        var length = socklen_t(MemoryLayout<CAnnounceLinux_ucred>.size)
        return getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 && credentials.pid == pid
    }
}

/// Each connection of an announcer has its own thread, which closes the socket as the last thing
/// it does before it ends; so a socket that closes shows that its thread left too.
@Suite("AnnounceClient's connection: its thread and socket end with it")
struct ClientLinkTests {
    @Test("releasing the announcer closes its socket and ends its reader thread")
    func releasedAnnouncer() async throws {
        let daemon = try await DaemonProcess.start()
        #expect(connections(to: daemon).isEmpty)
        var announcer: Announcer? = Announcer(socketPath: daemon.socketPath, clientName: "link-tests")
        let statuses = announcer!.statusChanges()
        #expect(await announcer!.announce("Connected") == .spoken)
        _ = try await statuses.first("the status") { $0.isSpeechRunning }
        #expect(connections(to: daemon).count == 1)
        // A status stream keeps an announcer connected; releasing the announcer still ends it.
        announcer = nil
        let pid = daemon.process.processIdentifier
        // A descriptor the announcer's own thread closes sends this process no event: polled.
        try await pollUntil("the released announcer's socket to close", timeout: 10) {
            connections(toProcess: pid).isEmpty
        }
        try await withTimeout("the status stream to end") { for await _ in statuses {} }
    }

    @Test("a post larger than the socket takes at once is sent whole, the rest by the connection's thread")
    func largePost() async throws {
        let daemon = try await DaemonProcess.start()
        let announcer = Announcer(socketPath: daemon.socketPath, clientName: "link-tests")
        // About 1 MB on one line: several times what a Unix socket's buffer holds. The results
        // come through a stream, whose iteration a timeout can end (an unsent post never returns).
        let large = String(repeating: "word ", count: 200_000)
        let (results, continuation) = AsyncStream.makeStream(of: EnqueueResult.self)
        Task {
            continuation.yield(await announcer.enqueue(.announce(large)))
            continuation.yield(await announcer.enqueue(.announce("After")))
        }
        let first = try await results.first("the large post to be queued") { _ in true }
        let second = try await results.first("the small post after it to be queued") { _ in true }
        guard case .queued(let firstSeq) = first, case .queued(let secondSeq) = second else {
            Issue.record("expected both posts queued, got \(first) and \(second)")
            return
        }
        #expect(firstSeq < secondSeq)
    }

    @Test("the daemon dying closes the socket; a listening announcer keeps one connection to the new daemon")
    func daemonDies() async throws {
        let first = try await DaemonProcess.start()
        let plain = Announcer(socketPath: first.socketPath, clientName: "plain")
        let listening = Announcer(socketPath: first.socketPath, clientName: "listening")
        let statuses = listening.statusChanges()
        #expect(await plain.announce("One") == .spoken)
        _ = try await statuses.first("the first status") { $0.isSpeechRunning }
        #expect(connections(to: first).count == 2)

        let pid = first.process.processIdentifier
        _ = await onBlockingThread { first.stop(signal: SIGKILL) }
        // A descriptor the announcer's own thread closes sends this process no event: polled.
        try await pollUntil("both sockets to the dead daemon to close", timeout: 10) {
            connections(toProcess: pid).isEmpty
        }

        // The listening announcer reconnects on its own; the plain one connects again on its next post.
        let second = try await DaemonProcess.start(socketPath: first.socketPath)
        _ = try await statuses.first("the new daemon's status") { $0.isSpeechRunning }
        #expect(connections(to: second).count == 1)
        #expect(await plain.announce("Two") == .spoken)
        #expect(connections(to: second).count == 2)
        #expect(connections(to: first).isEmpty)
    }
}
