// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import Glibc
import TestSupport
import Testing

/// The repository's root folder.
let systemdTestsRepositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The path of `tool` on PATH, if it is installed.
func installedTool(_ tool: String) -> String? {
    let directories =
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") + ["/usr/bin", "/bin"]
    return directories.map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}

@Suite("systemd: the user units and socket activation", .onBlockingThreads)
struct SystemdTests {
    /// Copies the units to a private folder with ExecStart pointing at the built daemon, as
    /// `make install` points it at $(PREFIX)/bin, and runs `systemd-analyze --user verify` on
    /// them. Without a user manager (a container, CI as root) it needs only XDG_RUNTIME_DIR.
    @Test(
        "systemd-analyze --user verify prints nothing for announced.socket, announced-ssip.socket and announced.service",
        .enabled(if: installedTool("systemd-analyze") != nil, "needs systemd-analyze (apt-get install systemd)")
    )
    func unitsVerify() throws {
        let directory = DaemonProcess.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let service = try String(
            contentsOf: systemdTestsRepositoryRoot.appendingPathComponent("systemd/announced.service"), encoding: .utf8)
        #expect(service.contains("\nExecStart=/usr/local/bin/announced\n"), "make install rewrites this line")
        let installed = service.replacingOccurrences(
            of: "ExecStart=/usr/local/bin/", with: "ExecStart=\(DaemonProcess.binDirectory.path)/")
        try Data(installed.utf8).write(to: directory.appendingPathComponent("announced.service"))
        for unit in ["announced.socket", "announced-ssip.socket"] {
            try FileManager.default.copyItem(
                at: systemdTestsRepositoryRoot.appendingPathComponent("systemd/\(unit)"),
                to: directory.appendingPathComponent(unit)
            )
        }
        let runtime = directory.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(
            at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])

        let ownRuntime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"]
            .flatMap { FileManager.default.fileExists(atPath: $0) ? $0 : nil }
        let result = try AnnouncectlProcess.run(
            [
                "--user", "verify", "--man=no",
                directory.appendingPathComponent("announced.socket").path,
                directory.appendingPathComponent("announced-ssip.socket").path,
                directory.appendingPathComponent("announced.service").path,
            ],
            environment: ["XDG_RUNTIME_DIR": ownRuntime ?? runtime.path, "SYSTEMD_LOG_COLOR": "0"],
            executable: URL(fileURLWithPath: try #require(installedTool("systemd-analyze")))
        )
        let text = result.stdout + result.stderr
        #expect(text.isEmpty, "systemd-analyze said:\n\(text)")
        #expect(result.status == 0)

        // The values the issue asks for.
        let socket = try String(contentsOf: directory.appendingPathComponent("announced.socket"), encoding: .utf8)
        for line in [
            "ListenStream=%t/announced/announced.sock", "SocketMode=0600", "DirectoryMode=0700",
            "FileDescriptorName=announced",
        ] {
            #expect(socket.contains("\n\(line)\n"), "announced.socket lacks \(line)")
        }
        let ssip = try String(contentsOf: directory.appendingPathComponent("announced-ssip.socket"), encoding: .utf8)
        for line in [
            "ListenStream=%t/speech-dispatcher/speechd.sock", "SocketMode=0600", "DirectoryMode=0700",
            "FileDescriptorName=ssip",
            "Service=announced.service", "Conflicts=speech-dispatcher.socket",
        ] {
            #expect(ssip.contains("\n\(line)\n"), "announced-ssip.socket lacks \(line)")
        }
        for line in [
            "Type=notify", "ExecReload=/bin/kill -HUP $MAINPID", "Restart=on-failure", "NoNewPrivileges=yes",
            "RestrictAddressFamilies=AF_UNIX", "ProtectSystem=strict", "PrivateTmp=yes",
        ] {
            #expect(service.contains("\n\(line)\n"), "announced.service lacks \(line)")
        }
    }

    @Test(
        "systemd-socket-activate: the daemon serves the passed socket, names it in its log, sends READY=1 and leaves the socket file on SIGTERM",
        .enabled(
            if: installedTool("systemd-socket-activate") != nil,
            "needs systemd-socket-activate (apt-get install systemd)")
    )
    func socketActivation() throws {
        let directory = DaemonProcess.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var activated = try SocketActivatedDaemon(in: directory, logLevel: "info")
        let (process, socketPath, notify) = (activated.process, activated.socketPath, activated.notify)

        // The first connection makes systemd-socket-activate exec the daemon with LISTEN_FDS=1.
        let client = try LineClient(path: socketPath)
        client.send(#"{"op":"hello","id":1,"client":"systemd-test"}"#)
        let hello = try #require(client.waitFor("ok", id: 1))
        #expect(hello["daemon"] == .string("announced"))
        #expect(notify.waitForReady(timeout: 30))
        client.send(announce(2, "Activated"))
        #expect(client.waitForTerminal(id: 2)?["success"] == .bool(true))

        process.signal(SIGTERM)
        #expect(process.waitForExit() == 0)
        activated.readRemainingOutput()
        #expect(
            activated.said.contains("socket=\(socketPath)"),
            "the log names the socket actually served:\n\(activated.said)")
        var info = stat()
        #expect(lstat(socketPath, &info) == 0, "the passed socket must not be unlinked")
        #expect(info.st_mode & S_IFMT == S_IFSOCK)
    }

    @Test(
        "systemd-socket-activate with announced-ssip.socket's socket passed first: the daemon serves the one named announced as its main socket",
        .enabled(
            if: installedTool("systemd-socket-activate") != nil,
            "needs systemd-socket-activate (apt-get install systemd)")
    )
    func twoSocketsByName() throws {
        let directory = DaemonProcess.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // The SSIP socket is descriptor 3 here, so a daemon that took descriptor 3 for its main
        // socket would never answer on announced.sock.
        var activated = try SocketActivatedDaemon(
            in: directory, logLevel: "info", sockets: [("speechd.sock", "ssip"), ("announced.sock", "announced")]
        )
        let (process, socketPath, notify) = (activated.process, activated.socketPath, activated.notify)
        #expect(socketPath.hasSuffix("/announced.sock"))

        let client = try LineClient(path: socketPath)
        client.send(#"{"op":"hello","id":1,"client":"systemd-test"}"#)
        let hello = try #require(client.waitFor("ok", id: 1))
        #expect(hello["daemon"] == .string("announced"))
        #expect(notify.waitForReady(timeout: 30))

        process.signal(SIGTERM)
        #expect(process.waitForExit() == 0)
        activated.readRemainingOutput()
        #expect(
            activated.said.contains("socket=\(socketPath)"), "the log names the main socket served:\n\(activated.said)")
        #expect(!activated.said.contains("not served"), "both passed sockets are known:\n\(activated.said)")
    }
}
