// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import Glibc
import TestSupport
import Testing

@Suite("Daemon: process, socket file and signals", .daemonTimeLimit, .onBlockingThreads)
struct ProcessTests {
    @Test("SIGTERM ends every post with shutdown, flushes the lines, removes the socket and exits 0")
    func sigterm() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        client.send(
            announce(1, "A long announcement that is still speaking when the daemon is told to stop"),
            announce(2, "Waiting", #","queue":true"#))
        client.waitFor("started", id: 1)
        let status = daemon.stop(signal: SIGTERM)
        #expect(status == 0)
        let first = try #require(client.waitForTerminal(id: 1))
        #expect(first["reason"] == .string("shutdown"))
        #expect(client.waitForTerminal(id: 2)?["reason"] == .string("shutdown"))
        #expect(client.waitForEOF())
        #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
    }

    @Test(
        "SIGTERM shuts the services down in order: posts end, sockets close, then speech stops its helper, reaped before exit"
    )
    func shutdownOrder() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        client.send(announce(1, "A long announcement that is still speaking when the daemon is told to stop"))
        client.waitFor("started", id: 1)
        let helpers = EngineCrashTests.children(of: daemon.process.processIdentifier)
        try #require(helpers.count == 1, "one espeak-ng helper: \(helpers)")
        #expect(daemon.stop(signal: SIGTERM) == 0)
        let log = daemon.stderrText()
        let steps = ["shutting down: ending every post", "stopped serving", "speech stopped"].compactMap {
            log.range(of: $0)?.lowerBound
        }
        #expect(steps.count == 3 && steps == steps.sorted(), "\(log)")
        #expect(
            !FileManager.default.fileExists(atPath: "/proc/\(helpers[0])"), "the daemon waited for its helper to exit")
    }

    @Test("SIGINT is a graceful stop too")
    func sigint() throws {
        let daemon = try DaemonProcess()
        #expect(daemon.stop(signal: SIGINT) == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
    }

    @Test("the socket directory is 0700 and the socket 0600")
    func modes() throws {
        let daemon = try DaemonProcess()
        var info = stat()
        #expect(stat(daemon.socketPath, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect((info.st_mode & S_IFMT) == S_IFSOCK)
        #expect(stat(URL(fileURLWithPath: daemon.socketPath).deletingLastPathComponent().path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
    }

    @Test("a stale socket file is replaced; a live one makes a second daemon exit 1 with a reason")
    func staleAndLive() throws {
        let first = try DaemonProcess()
        let path = first.socketPath
        first.stop(signal: SIGKILL) // leaves its socket file behind
        #expect(FileManager.default.fileExists(atPath: path))

        let second = try DaemonProcess(socketPath: path)
        let client = try second.connect()
        client.send(#"{"op":"status","id":1}"#)
        #expect(client.waitFor("ok", id: 1) != nil)

        let third = try DaemonProcess(socketPath: path, waitForReady: false)
        #expect(third.waitForExit() == 1)
        let message = third.stderrText()
        let reason = message.split(separator: "\n").last.map(String.init) ?? ""
        #expect(
            reason.hasPrefix("announced: ") && reason.contains("already serving"),
            "the last line gives the reason: \(message)")
        let again = try second.connect()
        again.send(#"{"op":"status","id":2}"#)
        #expect(again.waitFor("ok", id: 2) != nil, "the live daemon keeps serving")
    }

    @Test(
        "a socket file another daemon is still starting on (bound, not yet listening, its lock held) is left to it: exit 1, already served"
    )
    func socketBeingBoundByAnother() throws {
        let directory = DaemonProcess.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.path + "/starting.sock"
        // What a starting daemon has between bind and listen: its socket file's lock, and the file.
        let lock = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        defer { close(lock) }
        #expect(flock(lock, LOCK_EX | LOCK_NB) == 0)
        let bound = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(bound) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let bindResult = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(bound, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(bindResult == 0)
        var before = stat()
        #expect(lstat(path, &before) == 0)

        let daemon = try DaemonProcess(socketPath: path, waitForReady: false)
        #expect(daemon.waitForExit() == 1)
        #expect(daemon.stderrText().contains("already serving"), "\(daemon.stderrText())")
        var after = stat()
        #expect(
            lstat(path, &after) == 0 && after.st_ino == before.st_ino, "the starting daemon's socket file is untouched")
    }

    @Test("the socket path comes from ANNOUNCED_SOCKET, then XDG_RUNTIME_DIR")
    func socketPathFromEnvironment() throws {
        let runtime = DaemonProcess.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: runtime) }
        let daemon = try DaemonProcess(
            socketPath: "", environment: ["XDG_RUNTIME_DIR": runtime.path, "ANNOUNCED_SOCKET": ""])
        #expect(FileManager.default.fileExists(atPath: runtime.path + "/announced/announced.sock"))
        daemon.stop()
        let explicit = runtime.path + "/env.sock"
        let second = try DaemonProcess(
            socketPath: "", environment: ["XDG_RUNTIME_DIR": runtime.path, "ANNOUNCED_SOCKET": explicit])
        #expect(FileManager.default.fileExists(atPath: explicit))
        second.stop()
    }

    @Test(
        "a peer of another uid gets forbidden and is disconnected",
        .enabled(if: getuid() == 0, "needs root to connect as another user"))
    func forbiddenPeer() throws {
        let directory = DaemonProcess.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        chmod(directory.path, 0o755)
        let path = directory.path + "/open.sock"
        let daemon = try DaemonProcess(socketPath: path)
        chmod(path, 0o666) // let the other user reach the socket: SO_PEERCRED must still refuse it
        let lines = try readAsAnotherUser(from: path, sending: #"{"op":"status","id":1}"# + "\n").split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.contains(#""code":"forbidden""#) == true, "\(lines)")
        let own = try daemon.connect()
        own.send(#"{"op":"status","id":1}"#)
        #expect(own.waitFor("ok", id: 1) != nil)
    }

    @Test("bad command-line values exit 2 with a usage message")
    func usage() throws {
        let daemon = try DaemonProcess(arguments: ["--rate", "5"], waitForReady: false)
        #expect(daemon.waitForExit() == 2)
        #expect(daemon.stderrText().contains("--rate"))
    }

    @Test("no espeak-ng helper where ANNOUNCED_ESPEAK_HELPER points: exit 1 naming where it looked")
    func missingHelper() throws {
        let daemon = try DaemonProcess(
            environment: ["ANNOUNCED_ESPEAK_HELPER": "/nonexistent/announced-espeak"], waitForReady: false)
        #expect(daemon.waitForExit() == 1)
        let stderr = daemon.stderrText()
        #expect(
            stderr.contains("announced-espeak was not found (looked at /nonexistent/announced-espeak)"), "\(stderr)")
        #expect(!FileManager.default.fileExists(atPath: daemon.socketPath), "no socket left behind")
    }

    @Test("a client that sends and closes its side still gets every answer (socat style)")
    func halfClose() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        client.send(announce(1, "Download complete"))
        client.finishSending()
        #expect(client.waitForEOF(timeout: 30))
        #expect(client.lines(id: 1).map { $0.event ?? "" } == ["queued", "started", "finished"])
    }

    @Test("a last line without its newline is answered in full when the client half-closes (printf, echo -n)")
    func halfCloseWithoutNewline() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        client.sendRaw(
            Array(#"{"op":"status","id":1}"#.utf8) + [UInt8(ascii: "\n")] + Array(announce(2, "Download complete").utf8)
        )
        client.finishSending()
        #expect(client.waitForEOF(timeout: 30))
        #expect(client.lines(id: 1).map { $0.event ?? "" } == ["ok"])
        #expect(client.lines(id: 2).map { $0.event ?? "" } == ["queued", "started", "finished"])
    }
}
