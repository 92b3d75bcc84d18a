// SPDX-License-Identifier: GPL-3.0-or-later
/// An asynchronous event line block (7xx) about one message, sent only to the connection that
/// queued it and only when it enabled that type (shared/ssip.md §5).
public enum SSIPEvent: Sendable, Hashable {
    /// 701 BEGIN: the message's audio began.
    case begin
    /// 702 END: spoken to the end.
    case end
    /// 703 CANCELED: stopped, cancelled, or never spoken.
    case canceled
    /// 704 PAUSED.
    case paused
    /// 705 RESUMED.
    case resumed
    /// 700 INDEX MARK: an SSML `<mark name=…/>` was reached.
    case indexMark(String)

    /// The notification type that enables this event.
    public var notification: SSIPNotification {
        switch self {
        case .begin: return .begin
        case .end: return .end
        case .canceled: return .cancel
        case .paused: return .pause
        case .resumed: return .resume
        case .indexMark: return .indexMarks
        }
    }

    /// The event's bytes for a message and its connection's client id, e.g.
    /// `702-12\r\n702-3\r\n702 END\r\n`.
    public func bytes(messageID: Int, clientID: Int) -> [UInt8] {
        reply(messageID: messageID, clientID: clientID).bytes
    }

    func reply(messageID: Int, clientID: Int) -> SSIPReply {
        let ids = [String(messageID), String(clientID)]
        switch self {
        case .begin: return SSIPReply(701, "BEGIN", data: ids)
        case .end: return SSIPReply(702, "END", data: ids)
        case .canceled: return SSIPReply(703, "CANCELED", data: ids)
        case .paused: return SSIPReply(704, "PAUSED", data: ids)
        case .resumed: return SSIPReply(705, "RESUMED", data: ids)
        case .indexMark(let name): return SSIPReply(700, "INDEX MARK", data: ids + [name])
        }
    }
}

/// The set of event types a connection enabled.
public struct SSIPNotifications: Sendable, Hashable {
    private var enabled: Set<SSIPNotification> = []

    /// None enabled (a new connection).
    public init() {}

    /// Turns one type (nil: all six) on or off.
    public mutating func set(_ type: SSIPNotification?, _ on: Bool) {
        let types = type.map { [$0] } ?? SSIPNotification.allCases
        for type in types {
            if on { enabled.insert(type) } else { enabled.remove(type) }
        }
    }

    /// True when events of this type are sent.
    public func contains(_ type: SSIPNotification) -> Bool { enabled.contains(type) }
}
