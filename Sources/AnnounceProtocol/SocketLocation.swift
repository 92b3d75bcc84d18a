// SPDX-License-Identifier: Apache-2.0
internal import Glibc

/// Where the daemon's socket is, found the same way by the daemon and by every client, in the
/// protocol's order: the `--socket` flag, the config file's `socket` (the daemon's only),
/// `ANNOUNCED_SOCKET`, `$XDG_RUNTIME_DIR/announced/announced.sock`, then
/// `/tmp/announced-<uid>/announced.sock`.
public struct SocketLocation: Sendable, Hashable {
    /// The socket's path.
    public var path: String
    /// True for the two default locations (under `XDG_RUNTIME_DIR`, or the `/tmp` fallback):
    /// their directory is the daemon's own, so both sides refuse it unless it belongs to their
    /// user and has mode 0700 (``directoryProblem(uid:)``). A path someone named is theirs to choose.
    public var isDefault: Bool

    /// A location.
    public init(path: String, isDefault: Bool) {
        self.path = path
        self.isDefault = isDefault
    }

    /// The location for the given flag and config values and environment.
    public static func resolve(flag: String?, config: String? = nil, environment: [String: String]) -> SocketLocation {
        if let flag, !flag.isEmpty { return SocketLocation(path: flag, isDefault: false) }
        if let config, !config.isEmpty { return SocketLocation(path: config, isDefault: false) }
        if let env = environment["ANNOUNCED_SOCKET"], !env.isEmpty {
            return SocketLocation(path: env, isDefault: false)
        }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return SocketLocation(path: runtime + "/announced/announced.sock", isDefault: true)
        }
        return SocketLocation(path: "/tmp/announced-\(getuid())/announced.sock", isDefault: true)
    }

    /// The location for the given flag and the process's own environment.
    public static func resolve(flag: String?) -> SocketLocation {
        var environment: [String: String] = [:]
        for name in ["ANNOUNCED_SOCKET", "XDG_RUNTIME_DIR"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return resolve(flag: flag, environment: environment)
    }

    /// Where speech-dispatcher's clients (libspeechd, python3-speechd, spd-say) look for an SSIP
    /// server when `SPEECHD_ADDRESS` does not say: `$XDG_RUNTIME_DIR/speech-dispatcher/speechd.sock`,
    /// or, without `XDG_RUNTIME_DIR`, under GLib's user cache directory as libspeechd falls back
    /// to it (`$XDG_CACHE_HOME`, else `$HOME/.cache`). A default location: its directory is held
    /// to the same ownership and mode 0700 as the main socket's (``directoryProblem(uid:)``).
    public static func speechDispatcherDefault(environment: [String: String]) -> SocketLocation {
        let base: String
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            base = runtime
        } else if let cache = environment["XDG_CACHE_HOME"], !cache.isEmpty {
            base = cache
        } else if let home = environment["HOME"], !home.isEmpty {
            base = home + "/.cache"
        } else {
            // GLib's next choice when HOME is unset too: the password database's home directory
            // (and where even that is missing, the main socket's /tmp fallback directory).
            base =
                (getpwuid(getuid())?.pointee.pw_dir).map { String(cString: $0) + "/.cache" }
                ?? "/tmp/announced-\(getuid())"
        }
        return SocketLocation(path: base + "/speech-dispatcher/speechd.sock", isDefault: true)
    }

    /// The directory the socket is in (`.` when the path has none).
    public var directory: String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let directory = String(path[..<slash])
        return directory.isEmpty ? "/" : directory
    }

    /// Why the socket's directory cannot be trusted, in a sentence that says what to do; nil
    /// when it can (or does not exist yet, or the path was named explicitly). Another user's
    /// directory, or one others may write to, would let them replace the socket and impersonate
    /// the daemon.
    public func directoryProblem(uid: UInt32? = nil) -> String? {
        guard isDefault else { return nil }
        let uid = uid ?? getuid()
        var info = stat()
        guard lstat(directory, &info) == 0 else { return nil }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            return
                "the socket directory \(directory) is not a directory; remove it, and announced creates the directory when it starts"
        }
        if info.st_uid != uid {
            return
                "the socket directory \(directory) belongs to uid \(info.st_uid), not to you (uid \(uid)), so its owner could impersonate announced; remove it (announced creates its own) or set XDG_RUNTIME_DIR"
        }
        let mode = info.st_mode & 0o777
        if mode != 0o700 {
            return
                "the socket directory \(directory) has mode \(String(mode, radix: 8)), but must be 0700 so that no one else can replace the socket; run `chmod 700 \(directory)`"
        }
        return nil
    }
}
