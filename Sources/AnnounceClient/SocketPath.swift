// SPDX-License-Identifier: Apache-2.0
/// Where the daemon's socket is, found the way `announced` finds it (``SocketLocation``).
public enum AnnouncedSocket {
    /// The socket path, first match wins: `explicit` (a `--socket` flag), `ANNOUNCED_SOCKET`,
    /// `$XDG_RUNTIME_DIR/announced/announced.sock`, then `/tmp/announced-<uid>/announced.sock`.
    /// A nil `environment` reads the process's own.
    public static func path(explicit: String? = nil, environment: [String: String]? = nil) -> String {
        location(explicit: explicit, environment: environment).path
    }

    /// The socket's location, as ``path(explicit:environment:)`` finds it.
    public static func location(explicit: String? = nil, environment: [String: String]? = nil) -> SocketLocation {
        if let environment { return SocketLocation.resolve(flag: explicit, environment: environment) }
        return SocketLocation.resolve(flag: explicit)
    }

    /// How to start the daemon, for messages that say it is not running.
    public static let howToStart =
        "start it with `announced &` or `systemctl --user start announced.socket`, or point --socket or ANNOUNCED_SOCKET at the socket it serves"
}
