// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import Glibc
import TestSupport
import Testing

/// The descriptors `pid` has open, by number, each with what it refers to (`socket:[123]`,
/// `pipe:[456]`, a path).
func openDescriptors(of pid: Int32) -> [Int32: String] {
    let directory = "/proc/\(pid)/fd"
    var descriptors: [Int32: String] = [:]
    for entry in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
        guard let number = Int32(entry) else { continue }
        descriptors[number] =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(directory)/\(entry)")) ?? "?"
    }
    return descriptors
}

@Suite("Daemon: the espeak-ng helper inherits only its pipes and standard error", .onBlockingThreads, .serialized)
struct HelperDescriptorTests {
    @Test(
        "under systemd-socket-activate the helper does not hold the listening socket (the daemon's fd 3)",
        .enabled(
            if: installedTool("systemd-socket-activate") != nil,
            "needs systemd-socket-activate (apt-get install systemd)")
    )
    func socketActivated() throws {
        let directory = DaemonProcess.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let activated = try SocketActivatedDaemon(in: directory, logLevel: "warning")
        let (process, socketPath, notify) = (activated.process, activated.socketPath, activated.notify)

        let client = try LineClient(path: socketPath)
        client.send(announce(1, "Activated"))
        #expect(client.waitForTerminal(id: 1)?["success"] == .bool(true))
        #expect(notify.waitForReady(timeout: 30))

        let daemonDescriptors = openDescriptors(of: process.pid)
        #expect(
            daemonDescriptors[3]?.hasPrefix("socket:") == true,
            "the daemon serves the passed fd 3: \(daemonDescriptors)")
        let helpers = EngineCrashTests.children(of: process.pid)
        try #require(helpers.count == 1, "one espeak-ng helper: \(helpers)")
        let helperDescriptors = openDescriptors(of: helpers[0])
        #expect(helperDescriptors.keys.sorted() == [0, 1, 2], "the helper holds \(helperDescriptors)")
        #expect(!helperDescriptors.values.contains { $0.hasPrefix("socket:") }, "the helper holds \(helperDescriptors)")

        process.signal(SIGTERM)
        #expect(process.waitForExit() == 0)
    }

    @Test("a helper started while clients are connected holds none of their sockets")
    func replacementHelper() throws {
        let (daemon, client, helper) = try EngineCrashTests.speakingLongPost()
        let second = try daemon.connect()
        second.send(#"{"op":"hello","id":1,"client":"second"}"#)
        #expect(second.waitFor("ok", id: 1) != nil)
        kill(helper, SIGKILL)
        #expect(client.waitForTerminal(id: 1)?["reason"] == .string("error"))
        client.send(announce(2, "The new helper speaks"))
        #expect(client.waitForTerminal(id: 2)?["success"] == .bool(true))

        let replacements = EngineCrashTests.children(of: daemon.process.processIdentifier)
        try #require(replacements.count == 1 && replacements != [helper], "a new helper: \(replacements)")
        let descriptors = openDescriptors(of: replacements[0])
        #expect(descriptors.keys.sorted() == [0, 1, 2], "the helper holds \(descriptors)")
        #expect(!descriptors.values.contains { $0.hasPrefix("socket:") }, "the helper holds \(descriptors)")
        #expect(daemon.stop() == 0)
    }
}
