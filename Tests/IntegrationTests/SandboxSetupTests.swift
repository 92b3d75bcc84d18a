// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import Foundation
import TestSupport
import Testing

/// The helper's sandbox where the kernel cannot put the seccomp filter on every thread at once
/// (TSYNC): espeak-ng's own thread, started before the filter, would run without it, so the
/// helper must refuse to run at all, and say why.
@Suite(
    "Daemon: an engine helper whose seccomp filter cannot cover every thread does not run", .daemonTimeLimit,
    .onBlockingThreads,
    .enabled(if: installedTool("cc") != nil, "needs a C compiler (apt-get install gcc)")
)
struct SandboxSetupTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// The helper `name` behind Fixtures/seccomp_syscall_refused.c (the seccomp system call refused
    /// with ENOSYS, as some container profiles do), built into `directory`; its path.
    static func helperWithoutSeccompCall(_ name: String = "announced-espeak", in directory: URL) throws -> String {
        let helper = DaemonProcess.binDirectory.appendingPathComponent(name).path
        let output = directory.appendingPathComponent(name).path
        let source = fixtures.appendingPathComponent("seccomp_syscall_refused.c").path
        let compiler = try AnnouncectlProcess(
            ["-Wall", "-Werror", "-DPROGRAM=\"\(helper)\"", "-o", output, source],
            executable: URL(fileURLWithPath: try #require(installedTool("cc")))
        )
        compiler.finishInput()
        let built = compiler.finish()
        try #require(built.status == 0, "cc failed: \(built.stderr)")
        return output
    }

    @Test("without TSYNC the helper exits saying why, and the daemon does not start with it")
    func threadSyncRefused() throws {
        let directory = DaemonProcess.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let helper = try Self.helperWithoutSeccompCall(in: directory)
        let daemon = try DaemonProcess(environment: ["ANNOUNCED_ESPEAK_HELPER": helper], waitForReady: false)
        let said = daemon.waitForStderr(
            containing: "announced-espeak: the speech engine's sandbox cannot be set up", timeout: 30)
        guard said else {
            daemon.stop()
            Issue.record(
                "the helper ran with its filter on one thread only; the daemon's stderr:\n\(daemon.stderrText())")
            return
        }
        #expect(daemon.waitForExit() != 0)
        let stderr = daemon.stderrText()
        #expect(stderr.contains("every thread"), "\(stderr)")
        #expect(stderr.contains("exited with status 3"), "\(stderr)")
    }

    @Test(
        "without TSYNC a Piper post ends error, the helper saying why, and espeak-ng's posts still speak",
        .enabled(
            if: FetchedPiper.isFetched,
            "the Piper engine or its test voice is not fetched: run scripts/fetch-piper-engine.sh")
    )
    func threadSyncRefusedForPiper() throws {
        let directory = DaemonProcess.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let helper = try Self.helperWithoutSeccompCall("announced-piper", in: directory)
        let daemon = try DaemonProcess(
            environment: [
                "ANNOUNCED_PIPER_LIBRARY_DIR": FetchedPiper.libraryDirectory, "ANNOUNCED_PIPER_HELPER": helper,
            ]
        )
        try FetchedPiper.install(in: daemon.voicesDirectory)
        // A voice is known once the catalog has seen it settle, not as soon as its files exist.
        try #require(daemon.waitForStderr(containing: "piper voices changed voices=en_us-joe-medium", timeout: 10))
        let client = try daemon.connect()
        client.send(announce(1, "Download complete.", #","voice":"en_us-joe-medium""#))
        let terminal = try #require(client.waitForTerminal(id: 1, timeout: 90))
        #expect(terminal["reason"] == .string("error"), "\(terminal.text)")
        #expect(
            daemon.waitForStderr(
                containing: "the seccomp filter cannot be put on every thread at once (TSYNC)", timeout: 10))
        client.send(announce(2, "Still speaking"))
        let next = try #require(client.waitForTerminal(id: 2))
        #expect(next["success"] == .bool(true), "\(next.text)")
        #expect(daemon.stop() == 0)
    }
}
