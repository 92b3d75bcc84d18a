// SPDX-License-Identifier: GPL-3.0-or-later
import AnnouncePOSIX
import Glibc
import SystemPackage

/// The log of a daemon `announced --spawn` started: `$XDG_STATE_HOME/announced/spawned.log`
/// (`~/.local/state/announced/spawned.log` when XDG_STATE_HOME is unset), the daemon's standard
/// error. A file rather than the journal so that the spawn command can quote why a daemon did not
/// start; each spawn moves the previous log to `spawned.log.1`, so it never grows past two runs.
enum SpawnLog {
    /// The log's path for `environment`, or nil when neither XDG_STATE_HOME nor HOME is set.
    static func path(environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/announced/spawned.log" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.local/state/announced/spawned.log" }
        return nil
    }

    /// Moves the previous log aside and opens a new one (close-on-exec, mode 0600; its folders
    /// are made 0700 as needed).
    static func open(environment: [String: String]) throws(SSIPSpawn.Failure) -> (path: String, descriptor: Int32) {
        guard let path = path(environment: environment) else {
            throw SSIPSpawn.Failure(
                description: "there is nowhere to write the daemon's log: set HOME or XDG_STATE_HOME")
        }
        var directory = ""
        for component in path.split(separator: "/").dropLast() {
            directory += "/" + component
            if mkdir(directory, 0o700) != 0, errno != EEXIST {
                throw SSIPSpawn.Failure(
                    description:
                        "cannot create \(directory) for the daemon's log: \(String(cString: strerror(errno))); set XDG_STATE_HOME to a folder you can write to"
                )
            }
        }
        rename(path, path + ".1")
        let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw SSIPSpawn.Failure(
                description:
                    "cannot write the daemon's log \(path): \(String(cString: strerror(errno))); set XDG_STATE_HOME to a folder you can write to"
            )
        }
        return (path, descriptor)
    }

    /// The log's last line that is not empty, with the daemon's `announced: ` prefix removed; nil
    /// when there is none. A daemon that cannot start writes its reason as its last line.
    static func lastLine(of path: String) -> String? {
        // Only the end matters: the last 64 KiB of a long log.
        let tail: Int64 = 1 << 16
        guard let descriptor = try? FileDescriptor.open(FilePath(path), .readOnly, options: .closeOnExec) else {
            return nil
        }
        defer { try? descriptor.close() }
        guard let size = try? descriptor.seek(offset: 0, from: .end),
            (try? descriptor.seek(offset: max(0, size - tail), from: .start)) != nil,
            let bytes = try? descriptor.readToEnd(limit: Int(tail))
        else { return nil }
        let line = bytes.split(separator: UInt8(ascii: "\n")).last.map { String(decoding: $0, as: UTF8.self) }
        guard let line, !line.isEmpty else { return nil }
        return line.hasPrefix("announced: ") ? String(line.dropFirst("announced: ".count)) : line
    }
}
