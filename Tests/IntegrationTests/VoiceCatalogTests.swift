// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import TestSupport
import Testing

/// The daemon's voice catalog: kept up to date by its own thread, which watches the voice
/// directories, so neither the event loops nor the main queue scan them.
@Suite("Voice catalog: voices installed and removed while the daemon runs", .daemonTimeLimit, .onBlockingThreads)
struct VoiceCatalogTests {
    @Test(
        "a voice installed while the daemon runs is listed by SSIP and `voices` once the catalog logs it; removed, it goes"
    )
    func installAndRemoveAreSeen() throws {
        let ssip = try SSIPDaemon()
        let daemon = ssip.daemon
        let source = try TemporaryDirectory()
        defer { source.remove() }
        let model = try FakeVoice.install(
            "en_US-fake-medium", in: source.path, config: FakeVoice.config(dataset: "fake"))
        let session = try ssip.connectSSIP()
        #expect(session.command("SET self CLIENT_NAME test:catalog:main")?.code == 208)
        let entry = "249-en_us-fake-medium\ten-US\tnone"

        #expect(try voices(daemon, "install", model).status == 0)
        #expect(daemon.waitForStderr(containing: "piper voices changed voices=en_us-fake-medium", timeout: 10))
        #expect(session.command("SET self OUTPUT_MODULE piper")?.code == 216)
        let listed = try #require(session.command("LIST SYNTHESIS_VOICES"))
        #expect(listed.lines == [entry, "249 OK VOICE LIST SENT"], "\(listed)")
        #expect(try voices(daemon, "--lang", "en").stdout.contains("en_us-fake-medium"))

        #expect(try voices(daemon, "remove", "en_us-fake-medium").status == 0)
        #expect(daemon.waitForStderr(containing: "piper voices changed voices=\"\"", timeout: 10))
        #expect(session.command("LIST SYNTHESIS_VOICES")?.lines.contains(entry) == false)
        #expect(try !voices(daemon, "--lang", "en").stdout.contains("en_us-fake-medium"))
    }

    /// `announcectl voices ...` for `daemon`'s voice directory.
    func voices(_ daemon: DaemonProcess, _ arguments: String...) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        try AnnouncectlProcess.run(
            ["--socket", daemon.socketPath, "voices"] + arguments,
            environment: [
                "XDG_DATA_HOME": daemon.directory.appendingPathComponent("data").path, "ANNOUNCED_SYSTEM_VOICES": "",
            ]
        )
    }
}
