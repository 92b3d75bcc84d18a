// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceProtocol

/// A connection's number, unique for the daemon's lifetime.
public typealias ClientID = UInt64

/// One thing the dispatcher sends a connection: an event, a reply its front-end made itself, or
/// the answer to a front-end's control. The front-end's encoder turns each into its protocol's bytes.
public enum ClientLine: Sendable, Hashable {
    /// An event, written in the front-end's protocol.
    case event(Event)
    /// The reply a front-end answered a request with itself (``ClientInput/answered(_:)``), in its
    /// place among the connection's lines.
    case reply(any FrontEndReply)
    /// The answer to ``ClientInput/control(_:_:)``, before the lines of what it ended or held.
    case control(ControlAnswer)

    /// Lines are equal when they are the same case with equal values (replies of the same type).
    public static func == (lhs: ClientLine, rhs: ClientLine) -> Bool {
        switch (lhs, rhs) {
        case (.event(let a), .event(let b)): return a == b
        case (.reply(let a), .reply(let b)): return AnyHashable(a) == AnyHashable(b)
        case (.control(let a), .control(let b)): return a == b
        default: return false
        }
    }

    /// Hashes the case and its value.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .event(let event):
            hasher.combine(0)
            hasher.combine(event)
        case .reply(let reply):
            hasher.combine(1)
            hasher.combine(AnyHashable(reply))
        case .control(let answer):
            hasher.combine(2)
            hasher.combine(answer)
        }
    }
}

/// How the dispatcher answers a front-end's stop, cancel, pause or resume.
public enum ControlAnswer: Sendable, Hashable {
    /// The control was carried out. It comes before every line the control causes (the terminal
    /// lines of what it ended, the `paused` or `resumed` line of what it held or continued).
    case done(SpeechControl)
    /// The scope named a connection that does not exist; nothing was done.
    case unknownClient(SpeechControl)
}

/// Where the dispatcher sends the lines of one connection: a front-end's encoder over the
/// connection. Called on the main actor, once per dispatcher turn with every line of that turn, in
/// order; must not block.
public protocol EventSink: AnyObject, Sendable {
    /// Sends `lines` to the client, in order.
    func deliver(_ lines: [ClientLine])
    /// Closes the connection once every line already delivered has been written.
    func close()
}

/// A connected client, as the server introduces it to the dispatcher.
public struct ClientRegistration: Sendable {
    /// The connection's number.
    public var id: ClientID
    /// The peer's process id, from SO_PEERCRED, when known: names the client `pid:N` until `hello`.
    public var pid: Int32?
    /// Where its lines go.
    public var sink: any EventSink
    /// The protocol it speaks, e.g. `json` or `ssip`, which `status` counts by.
    public var protocolName: String
    /// The peer's user id, from SO_PEERCRED; nil for the daemon's own clients (toolkit
    /// announcements). A client of another allowed user sees only its own user's history.
    public var uid: UInt32?

    /// Creates a registration.
    public init(id: ClientID, pid: Int32?, sink: any EventSink, protocolName: String = "json", uid: UInt32? = nil) {
        self.id = id
        self.pid = pid
        self.sink = sink
        self.protocolName = protocolName
        self.uid = uid
    }
}

/// The dispatcher's record of a connected client.
struct ClientState {
    let registration: ClientRegistration
    var name: String?
    /// True when the connection said `"lint": true` in `hello`: it gets `lint` lines about the
    /// elements it posts.
    var wantsLint = false
    /// The client has finished sending (it half-closed): the connection is closed once its last
    /// post has its terminal line.
    var finishedSending = false
    /// Requests whose answer waits for something off the main queue (`voices` waits for the
    /// voice catalog to be current): the connection stays open for them after `finishedSending`.
    var answersOwed = 0

    /// The name in `speech` events: from `hello`, else `pid:N`.
    var displayName: String {
        if let name { return name }
        if let pid = registration.pid { return "pid:\(pid)" }
        return "client:\(registration.id)"
    }
}
