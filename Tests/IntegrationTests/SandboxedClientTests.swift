// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import Glibc
import TestSupport
import Testing

/// A client in a sandbox like a Flatpak app's: `bwrap` with new namespaces of every kind, the
/// system's programs and libraries read-only, and of the user's files only what
/// `--filesystem=xdg-run/announced` would give: `$XDG_RUNTIME_DIR/announced` bound at the same
/// place under the sandbox's own `XDG_RUNTIME_DIR`.
@Suite(
    "A sandboxed client (bwrap) reaching the daemon's socket", .daemonTimeLimit, .onBlockingThreads,
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: "/usr/bin/bwrap"),
        "needs bubblewrap (apt-get install bubblewrap)")
)
struct SandboxedClientTests {
    @Test func aClientWithOnlyTheSocketDirectoryBoundIsServed() throws {
        let runtime = DaemonProcess.makeTemporaryDirectory().appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: runtime.path)
        defer { try? FileManager.default.removeItem(at: runtime.deletingLastPathComponent()) }
        let socketDirectory = runtime.appendingPathComponent("announced").path
        let daemon = try DaemonProcess(socketPath: socketDirectory + "/announced.sock")
        let watcher = try speechWatcher(daemon)

        // Of the runtime directory, the sandbox sees the socket's directory and nothing else.
        let listed = try sandboxed(["/bin/ls", "-A", "/run/user/\(getuid())"], binding: socketDirectory)
        #expect(listed.status == 0 && listed.stdout == "announced\n", "\(listed.stdout)\(listed.stderr)")
        let served = try sandboxed(["announcectl", "say", "--wait", "From the sandbox"], binding: socketDirectory)
        #expect(served.status == 0, "\(served.stdout)\(served.stderr)")
        #expect(served.stdout.contains("spoken"), "\(served.stdout)")
        let started = watcher.waitFor { $0.event == "speech" && $0["state"] == .string("started") }
        #expect(started?["text"] == .string("From the sandbox"))
        #expect(started?["client"] == .string("announcectl"))

        // The same sandbox without the hole reaches nothing.
        let refused = try sandboxed(["announcectl", "say", "Not heard"], binding: nil)
        #expect(refused.status != 0, "\(refused.stdout)\(refused.stderr)")
        #expect(daemon.stop() == 0)
    }

    /// Runs `command` in the sandbox, with `directory` bound at `/run/user/UID/announced` when
    /// given; its status and output.
    private func sandboxed(_ command: [String], binding directory: String?) throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        let runtime = "/run/user/\(getuid())"
        var arguments = [
            "--unshare-all", "--die-with-parent", "--clearenv", "--ro-bind", "/usr", "/usr",
            "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/bin", "/bin",
            "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/run", "--dir", runtime, "--chmod", "0700", runtime,
            "--ro-bind", try swiftRuntimeDirectory(), try swiftRuntimeDirectory(),
            "--ro-bind", AnnouncectlProcess.executable.path, "/app/bin/announcectl",
            "--setenv", "PATH", "/app/bin:/usr/bin", "--setenv", "XDG_RUNTIME_DIR", runtime,
        ]
        if let directory { arguments += ["--bind", directory, runtime + "/announced"] }
        return try AnnouncectlProcess.run(
            arguments + command, executable: URL(fileURLWithPath: "/usr/bin/bwrap"))
    }

    /// Where the Swift runtime libraries of a debug build are (the test's own libswiftCore.so's
    /// directory), for the sandboxed announcectl.
    private func swiftRuntimeDirectory() throws -> String {
        // Read to its end: /proc's files have no size for String(contentsOfFile:) to go by.
        let handle = try #require(FileHandle(forReadingAtPath: "/proc/self/maps"))
        defer { try? handle.close() }
        let maps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        let line = try #require(maps.split(separator: "\n").first { $0.hasSuffix("/libswiftCore.so") })
        let path = try #require(line.split(separator: " ").last)
        return (String(path) as NSString).deletingLastPathComponent
    }
}
