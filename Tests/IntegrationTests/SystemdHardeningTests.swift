// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import Foundation
import TestSupport
import Testing

@Suite("systemd: announced.service is hardened", .onBlockingThreads)
struct SystemdHardeningTests {
    static let unit = systemdTestsRepositoryRoot.appendingPathComponent("systemd/announced.service")

    @Test(
        "systemd-analyze security rates announced.service's exposure at most 2.5",
        .enabled(if: installedTool("systemd-analyze") != nil, "needs systemd-analyze (apt-get install systemd)")
    )
    func exposure() throws {
        let analyze = URL(fileURLWithPath: try #require(installedTool("systemd-analyze")))
        let result = try AnnouncectlProcess.run(
            ["security", "--offline=true", "--no-pager", Self.unit.path], executable: analyze)
        let text = result.stdout + result.stderr
        // "→ Overall exposure level for announced.service: 1.1 OK 🙂"
        let line = try #require(
            text.split(separator: "\n").first { $0.contains("Overall exposure level for announced.service:") },
            "\(text)")
        let figure = try #require(
            line.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) }, "\(line)")
        #expect(figure <= 2.5, "\(text)")
    }

    @Test(
        "the unit keeps the network, capabilities, system calls and home directory from the daemon, and lets the helper sandbox itself"
    )
    func settings() throws {
        let service = try String(contentsOf: Self.unit, encoding: .utf8)
        for line in [
            "CapabilityBoundingSet=", "PrivateNetwork=yes", "PrivateUsers=yes", "ProtectHome=read-only",
            "RestrictAddressFamilies=AF_UNIX",
            "SystemCallFilter=@system-service", "SystemCallFilter=~@privileged @resources",
            // Without these, systemd's filter refuses the engine helper's own sandbox.
            "SystemCallFilter=seccomp landlock_create_ruleset landlock_add_rule landlock_restrict_self",
        ] {
            #expect(service.contains("\n\(line)\n"), "announced.service lacks \(line)")
        }
        #expect(!service.contains("\nPrivateDevices="), "ALSA's /dev/snd must stay reachable")
    }
}
