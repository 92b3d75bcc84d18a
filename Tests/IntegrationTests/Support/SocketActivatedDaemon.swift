// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import TestSupport
import Testing

/// The daemon started the way systemd's socket units start it: `systemd-socket-activate` binds
/// the socket and execs the daemon with `LISTEN_FDS=1` on the first connection.
///
/// systemd-socket-activate closes inherited descriptors before it execs the daemon, so it is
/// spawned directly (see SpawnedProcess).
struct SocketActivatedDaemon {
    /// systemd-socket-activate, which becomes the daemon.
    let process: SpawnedProcess
    /// The socket it listens on.
    let socketPath: String
    /// Where the daemon sends `READY=1`.
    let notify: NotifyListener
    /// What systemd-socket-activate (and then the daemon) wrote to stderr so far.
    var said: String

    /// Starts it in `directory` and returns once the socket is bound ("Listening on PATH").
    ///
    /// `sockets` are the file names of the sockets passed, in order (descriptors 3, 4, ...), with
    /// their `LISTEN_FDNAMES` names, as systemd passes announced.socket's and
    /// announced-ssip.socket's; by default one socket, `announced.sock`, without a name (as
    /// announced.socket passed it before it had one). ``socketPath`` is the one named
    /// `announced`, or the first.
    init(in directory: URL, logLevel: String, sockets: [(file: String, name: String?)] = [("announced.sock", nil)])
        throws
    {
        let paths = sockets.map { directory.appendingPathComponent($0.file).path }
        socketPath = paths[sockets.firstIndex { $0.name == "announced" } ?? 0]
        notify = try NotifyListener(path: directory.appendingPathComponent("notify").path)
        let names = sockets.compactMap(\.name)
        // systemd-socket-activate passes the daemon only the variables named with -E: the
        // sanitizers' options must be among them, or its reports miss `make tsan`'s and
        // `make asan`'s report folder.
        let sanitizerOptions = ["ASAN_OPTIONS", "TSAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"]
            .filter { ProcessInfo.processInfo.environment[$0] != nil }.flatMap { ["-E", $0] }
        process = try SpawnedProcess(
            executable: try #require(installedTool("systemd-socket-activate")),
            arguments: paths.flatMap { ["-l", $0] }
                + (names.isEmpty ? [] : ["--fdname=" + names.joined(separator: ":")]) + [
                    "-E", "NOTIFY_SOCKET=\(notify.path)",
                    "-E", "XDG_CONFIG_HOME=\(directory.appendingPathComponent("config").path)",
                    // Never the developer's session bus (``DaemonProcess/withoutDesktopBuses``).
                    "-E",
                    "DBUS_SESSION_BUS_ADDRESS=unix:path=\(directory.appendingPathComponent("no-session-bus").path)",
                ] + sanitizerOptions + [
                    DaemonProcess.executable.path, "--audio", "null", "--log-level", logLevel,
                ],
            environment: ProcessInfo.processInfo.environment,
            output: .pipe
        )
        let stderr = try #require(process.output)
        said = ""
        while !paths.allSatisfy({ said.contains("Listening on \($0) ") }) {
            let chunk = stderr.availableData
            if chunk.isEmpty { break }
            said += String(decoding: chunk, as: UTF8.self)
        }
        for path in paths {
            try #require(said.contains("Listening on \(path) "), "systemd-socket-activate said: \(said)")
        }
    }

    /// Reads the rest of stderr (after the process exited) into ``said``.
    mutating func readRemainingOutput() {
        if let stderr = process.output { said += String(decoding: stderr.readDataToEndOfFile(), as: UTF8.self) }
    }
}
