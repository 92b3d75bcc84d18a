// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import AnnounceProtocol
import DesktopBus

/// The toolkit announcements' side of the dispatcher: each application that announces is a
/// client of its own, named `atspi:<application name>` (in `speech` events and the monitor),
/// opened the first time it announces. So each application has a connection's limits
/// (`max_pending_per_client`; `max_text_chars`, checked here as a front end's decoder checks
/// it), and an application that floods fills only its own share of the queue: another
/// application's announcements, and the sockets' posts, are not dropped for it.
///
/// Used only by ``ToolkitAnnouncementService``'s task, one announcement after another.
struct ToolkitAnnouncementClients {
    let dispatcher: Dispatcher
    /// Where client numbers come from (the server's count, shared with the connections).
    let newClientID: @Sendable () -> ClientID
    let limits: DecodingLimits
    private var clients: [String: ClientID] = [:]

    init(dispatcher: Dispatcher, limits: DecodingLimits, newClientID: @escaping @Sendable () -> ClientID) {
        self.dispatcher = dispatcher
        self.limits = limits
        self.newClientID = newClientID
    }

    /// The name an application's announcements carry: `atspi:` and its name (its bus name when
    /// it has none).
    static func clientName(of announcement: ToolkitAnnouncement) -> String {
        "atspi:" + (announcement.application.isEmpty ? announcement.sender : announcement.application)
    }

    /// Hands `announcement` to the dispatcher as a post of its application's client: an assertive
    /// one interrupts like `announce`, a polite one or one without a politeness waits in line
    /// (`queue: true`). Returns why it was not posted (a text empty or too long), else nil.
    mutating func post(_ announcement: ToolkitAnnouncement) -> String? {
        guard announcement.text.contains(where: { !$0.isWhitespace }) else { return "its text is empty" }
        do {
            try limits.checkLength(announcement.text)
        } catch {
            return error.message
        }
        var options = SpeechOptions()
        options.queue = announcement.politeness != .assertive
        let post = SpeechPost(kind: .announce, subject: .text(announcement.text), options: options)
        dispatcher.submit([.request(RequestLine(id: nil, .speech(post)))], from: client(for: announcement))
        return nil
    }

    /// The client of the announcement's application, opened (and named) on its first announcement.
    private mutating func client(for announcement: ToolkitAnnouncement) -> ClientID {
        let name = Self.clientName(of: announcement)
        if let id = clients[name] { return id }
        let id = newClientID()
        clients[name] = id
        dispatcher.open(ClientRegistration(id: id, pid: nil, sink: NoLines(), protocolName: "atspi"))
        dispatcher.submit([.name(name)], from: id)
        return id
    }
}

/// An application's client has no connection: its posts carry no id, so the dispatcher owes it
/// no lines, and what `speech` subscribers hear of its posts goes to them.
private final class NoLines: EventSink {
    func deliver(_ lines: [ClientLine]) {}
    func close() {}
}
