internal import Glibc

/// Where the daemon's socket is, found the way `announced` finds it.
public enum AnnouncedSocket {
    /// The socket path, first match wins: `explicit` (a `--socket` flag), `ANNOUNCED_SOCKET`,
    /// `$XDG_RUNTIME_DIR/announced/announced.sock`, then `/tmp/announced-<uid>/announced.sock`. A nil `environment` reads the process's own.
    public static func path(explicit: String? = nil, environment: [String: String]? = nil) -> String {
        func variable(_ name: String) -> String? {
            if let environment { return environment[name] }
            return getenv(name).map { String(cString: $0) }
        }
        if let explicit, !explicit.isEmpty { return explicit }
        if let fromEnvironment = variable("ANNOUNCED_SOCKET"), !fromEnvironment.isEmpty { return fromEnvironment }
        if let runtime = variable("XDG_RUNTIME_DIR"), !runtime.isEmpty {
            return runtime + "/announced/announced.sock"
        }
        return "/tmp/announced-\(getuid())/announced.sock"
    }

    /// How to start the daemon, for messages that say it is not running.
    public static let howToStart =
        "start it with `announced &` or `systemctl --user start announced.socket`, or point --socket or ANNOUNCED_SOCKET at the socket it serves"
}
