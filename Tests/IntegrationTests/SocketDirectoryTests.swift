// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import Foundation
import Glibc
import TestSupport
import Testing

/// The socket directory's safety and the start-up errors about it (issue 15, bugs 3, 5 and 6).
@Suite("Socket directory: only the user's own, errors in words", .daemonTimeLimit, .onBlockingThreads)
struct SocketDirectoryTests {
    /// A runtime directory whose `announced` folder belongs to uid 65534 with mode 0777, as
    /// another user could make `/tmp/announced-<uid>` before the daemon does.
    static func foreignSocketDirectory() throws -> URL {
        let runtime = DaemonProcess.makeTemporaryDirectory()
        chmod(runtime.path, 0o700)
        let folder = runtime.appendingPathComponent("announced")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        chmod(folder.path, 0o777)
        try #require(chown(folder.path, 65534, 65534) == 0)
        return runtime
    }

    @Test("the daemon refuses a default socket directory owned by another uid with mode 0777, saying what to do")
    func daemonRefusesForeignDirectory() throws {
        let runtime = try Self.foreignSocketDirectory()
        defer { try? FileManager.default.removeItem(at: runtime) }
        let daemon = try DaemonProcess(
            audio: "null", socketPath: "", environment: ["XDG_RUNTIME_DIR": runtime.path, "ANNOUNCED_SOCKET": ""],
            waitForReady: false
        )
        #expect(daemon.waitForExit() == 1)
        let stderr = daemon.stderrText()
        #expect(stderr.contains("belongs to uid 65534"), "\(stderr)")
        #expect(stderr.contains("remove it"), "\(stderr)")
        var info = stat()
        #expect(lstat(runtime.path + "/announced/announced.sock", &info) != 0, "no socket made there")
    }

    @Test("the daemon refuses a default socket directory of its own with mode 0755")
    func daemonRefusesOpenMode() throws {
        let runtime = DaemonProcess.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: runtime) }
        try FileManager.default.createDirectory(atPath: runtime.path + "/announced", withIntermediateDirectories: false)
        chmod(runtime.path + "/announced", 0o755)
        let daemon = try DaemonProcess(
            audio: "null", socketPath: "", environment: ["XDG_RUNTIME_DIR": runtime.path, "ANNOUNCED_SOCKET": ""],
            waitForReady: false
        )
        #expect(daemon.waitForExit() == 1)
        #expect(daemon.stderrText().contains("chmod 700 \(runtime.path)/announced"), "\(daemon.stderrText())")
    }

    @Test(
        "ssip_socket default: speech-dispatcher's directory is held to the same rules, another uid's or mode 0755 is refused, and a missing one is made 0700",
        arguments: [(0o755, false), (0o777, true)])
    func ssipDefaultDirectory(mode: Int, foreign: Bool) throws {
        let runtime = DaemonProcess.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: runtime) }
        chmod(runtime.path, 0o700)
        let folder = runtime.path + "/speech-dispatcher"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        chmod(folder, mode_t(mode))
        if foreign { try #require(chown(folder, 65534, 65534) == 0) }
        let environment = ["XDG_RUNTIME_DIR": runtime.path, "ANNOUNCED_SOCKET": ""]
        let daemon = try DaemonProcess(
            audio: "null", socketPath: "",
            environment: environment.merging(["ANNOUNCED_SSIP_SOCKET": "default"]) { $1 }, waitForReady: false)
        #expect(daemon.waitForExit() == 1)
        let stderr = daemon.stderrText()
        #expect(
            stderr.contains("announced: refusing to serve \(folder)/speechd.sock: the socket directory \(folder) "),
            "\(stderr)")
        #expect(stderr.contains(foreign ? "belongs to uid 65534" : "chmod 700 \(folder)"), "\(stderr)")
        var info = stat()
        #expect(lstat(folder + "/speechd.sock", &info) != 0, "no socket made there")

        // Without the folder, the daemon makes it, 0700, and serves SSIP in it.
        try FileManager.default.removeItem(atPath: folder)
        let serving = try DaemonProcess(
            arguments: ["--ssip-socket", "default"], audio: "null", socketPath: "", environment: environment)
        #expect(stat(folder, &info) == 0 && info.st_mode & 0o777 == 0o700)
        #expect(lstat(folder + "/speechd.sock", &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK)
        #expect(serving.stop() == 0)
    }

    @Test("announcectl does not talk to a socket in another uid's directory, and says why")
    func announcectlRefusesForeignDirectory() throws {
        let runtime = try Self.foreignSocketDirectory()
        defer { try? FileManager.default.removeItem(at: runtime) }
        // A live socket there, as an impersonator would leave it.
        let impostor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(impostor) }
        var address = sockaddr_un.make(path: runtime.path + "/announced/announced.sock")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(impostor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(bound == 0 && listen(impostor, 8) == 0)
        let result = try AnnouncectlProcess.run(
            ["status"], environment: ["XDG_RUNTIME_DIR": runtime.path, "ANNOUNCED_SOCKET": ""]
        )
        #expect(result.status != 0)
        #expect(result.stderr.contains("belongs to uid 65534"), "\(result.stderr)")
        var pending = pollfd(fd: impostor, events: Int16(POLLIN), revents: 0)
        #expect(poll(&pending, 1, 0) == 0, "announcectl never connected")
    }

    @Test("a socket directory the daemon may not write: exit 1 with the reason in words and what to do")
    func unwritableDirectory() throws {
        let directory = DaemonProcess.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        chmod(directory.path, 0o755) // root's, not writable for uid 65534
        let (status, _, text) = try AnnouncectlProcess.run(
            [
                "--reuid=65534", "--regid=65534", "--clear-groups",
                DaemonProcess.executable.path, "--socket", directory.path + "/announced.sock", "--audio", "null",
            ],
            environment: ["XDG_CONFIG_HOME": directory.path + "/config", "HOME": directory.path],
            executable: URL(fileURLWithPath: "/usr/bin/setpriv")
        )
        #expect(status == 1)
        #expect(text.contains("may not create files in \(directory.path)"), "\(text)")
        #expect(text.contains("--socket"), "\(text)")
        #expect(!text.contains("errno"), "\(text)")
    }
}
