// SPDX-License-Identifier: Apache-2.0
/// Why a control request (`status`, `stop`, `set`, ...) did not succeed.
public enum AnnouncerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing answers on the socket: the daemon is not running or listens elsewhere.
    case unavailable(socketPath: String, reason: String)
    /// The daemon answered with an `error` line.
    case refused(code: ErrorCode, message: String)
    /// The connection closed before the daemon answered.
    case connectionLost(socketPath: String)
    /// The socket is in a directory that is not the user's own with mode 0700, where another
    /// user could impersonate the daemon; the announcer does not connect.
    case unsafeSocketDirectory(socketPath: String, reason: String)

    /// A sentence for people that says what to do next.
    public var description: String {
        switch self {
        case .unavailable(let path, let reason):
            return "announced is not reachable at \(path) (\(reason)); \(AnnouncedSocket.howToStart)"
        case .refused(_, let message):
            return "announced refused the request: \(message)"
        case .connectionLost(let path):
            return
                "the connection to announced at \(path) closed before it answered; check that the daemon is still running and try again"
        case .unsafeSocketDirectory(let path, let reason):
            return "not connecting to announced at \(path): \(reason)"
        }
    }
}
