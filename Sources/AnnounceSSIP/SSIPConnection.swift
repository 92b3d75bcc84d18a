// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import NIOCore
import POSIXThreads
import SSIPProtocol

/// One SSIP connection's state, shared by its decoder (on the connection's event loop), its
/// encoder (on the dispatcher's turn) and other connections' `SET all` / `SET <id>`.
final class SSIPConnection: Sendable {
    /// The connection's number, which `HISTORY GET CLIENT_ID` answers.
    let id: ClientID
    /// Settings, enabled events, data mode and block.
    let session: LockedValue<SSIPSession>
    /// When each message's first event may be written (its `225` went out just before).
    let firstEventDeadlines = LockedValue<[UInt64: NIODeadline]>([:])

    /// A connection whose output module is `defaultOutputModule` until it sets one.
    init(id: ClientID, maxCharacters: Int, defaultOutputModule: String = "") {
        self.id = id
        self.session = LockedValue(
            SSIPSession(clientID: Int(id), maxCharacters: maxCharacters, defaultOutputModule: defaultOutputModule))
    }

    /// The events the connection enabled.
    var notifications: SSIPNotifications { session.withLock { $0.notifications } }
}

/// The open SSIP connections by number.
final class SSIPConnections: Sendable {
    private let open = LockedValue<[ClientID: SSIPConnection]>([:])

    /// The connection `id`, made on first use (by its decoder or encoder, whichever comes first),
    /// with `defaultOutputModule` until it sets one.
    func connection(for id: ClientID, maxCharacters: Int, defaultOutputModule: String = "") -> SSIPConnection {
        open.withLock { open in
            if let known = open[id] { return known }
            let made = SSIPConnection(id: id, maxCharacters: maxCharacters, defaultOutputModule: defaultOutputModule)
            open[id] = made
            return made
        }
    }

    /// The connection `id`, if it is open.
    subscript(id: ClientID) -> SSIPConnection? { open.withLock { $0[id] } }

    /// Every open connection.
    var all: [SSIPConnection] { open.withLock { Array($0.values) } }

    /// Forgets a closed connection.
    func remove(_ id: ClientID) {
        _ = open.withLock { $0.removeValue(forKey: id) }
    }
}
