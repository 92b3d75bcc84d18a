// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

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
            throw SSIPSpawn.Failure(description: "there is nowhere to write the daemon's log: set HOME or XDG_STATE_HOME")
        }
        var directory = ""
        for component in path.split(separator: "/").dropLast() {
            directory += "/" + component
            if mkdir(directory, 0o700) != 0, errno != EEXIST {
                throw SSIPSpawn.Failure(description: "cannot create \(directory) for the daemon's log: \(String(cString: strerror(errno))); set XDG_STATE_HOME to a folder you can write to")
            }
        }
        rename(path, path + ".1")
        let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw SSIPSpawn.Failure(description: "cannot write the daemon's log \(path): \(String(cString: strerror(errno))); set XDG_STATE_HOME to a folder you can write to")
        }
        return (path, descriptor)
    }

    /// The log's last line that is not empty, with the daemon's `announced: ` prefix removed; nil
    /// when there is none. A daemon that cannot start writes its reason as its last line.
    static func lastLine(of path: String) -> String? {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[..<count]
            // Only the end matters; a long log is read through, not kept.
            if bytes.count > 1 << 16 { bytes.removeFirst(bytes.count - (1 << 16)) }
        }
        let line = bytes.split(separator: UInt8(ascii: "\n")).last.map { String(decoding: $0, as: UTF8.self) }
        guard let line, !line.isEmpty else { return nil }
        return line.hasPrefix("announced: ") ? String(line.dropFirst("announced: ".count)) : line
    }
}
