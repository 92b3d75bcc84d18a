// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceCore
import AnnounceProtocol
public import AnnounceServer
public import NIOCore
import SSIPProtocol

/// Writes the dispatcher's lines for one SSIP connection: `225-<id>` when a message is queued
/// (its id is the daemon's sequence number), the answers the decoder made, and the 7xx events the
/// connection enabled, about its own messages only.
///
/// Every message gets exactly one of 702 END and 703 CANCELED (when enabled): spoken to the end is
/// END; interrupted, cancelled, dropped by the priority rules, muted, or lost to an engine failure
/// is CANCELED. A message's first event is held ``SSIPEncoder/defaultFirstEventHold`` after its
/// 225, in a write of its own: python3-speechd registers a message's callback only after its main
/// thread has read the 225, and drops events that arrive before (shared/ssip.md §5).
public struct SSIPEncoder: FrontEndEncoder {
    /// 10 ms: long enough for python3-speechd's main thread to register its callback after it
    /// reads 225 on a loaded machine, short beside what a listener notices (audio is not held,
    /// only the event about it).
    public static let defaultFirstEventHold = TimeAmount.milliseconds(10)

    let connection: SSIPConnection
    let firstEventHold: TimeAmount

    /// Appends the replies and enabled events of `lines`, in order.
    public func encode(_ lines: [ClientLine], into output: inout FrontEndOutput) {
        let notifications = connection.notifications
        let clientID = Int(connection.id)
        for line in lines {
            switch line {
            case .control(.done(let control)):
                // STOP, CANCEL, PAUSE, RESUME: a reply, written before the events the control
                // caused (the dispatcher hands it over first: 213 before 703, 211 before 704),
                // and ahead of events still held (shared/ssip.md §7).
                output.appendReply(SSIPReply(done: control).bytes, answers: 1)
            case .control(.unknownClient):
                output.appendReply(SSIPReply.idDoesNotExist.bytes, answers: 1)
            case .reply(let reply):
                output.appendReply(Self.bytes(of: reply), answers: 1)
            case .event(let event):
                encode(event, notifications: notifications, clientID: clientID, into: &output)
            }
        }
    }

    /// Appends the bytes of a reply, or of a message's `225`, written straight from the event loop.
    public func encodeDirect(_ line: ClientLine, into buffer: inout ByteBuffer) {
        switch line {
        case .reply(let reply):
            buffer.writeBytes(Self.bytes(of: reply))
        case .event(.queued(_, let seq, _)):
            buffer.writeBytes(queued(seq))
        default:
            var output = FrontEndOutput()
            encode([line], into: &output)
            for write in output.writes { buffer.writeBytes(write.bytes) }
        }
    }

    /// `225-<seq>` + `225 OK MESSAGE QUEUED`; the message's first event is held from now on.
    private func queued(_ seq: UInt64) -> [UInt8] {
        let deadline = NIODeadline.now() + firstEventHold
        connection.firstEventDeadlines.withLock { $0[seq] = deadline }
        return SSIPReply.messageQueued(Int(seq)).bytes
    }

    /// The bytes of a reply the decoder made: always an ``SSIPReply`` (an SSIP connection's
    /// decoder makes no other kind).
    static func bytes(of reply: any FrontEndReply) -> [UInt8] {
        guard let reply = reply as? SSIPReply else {
            assertionFailure("an SSIP connection was handed a reply of another front-end: \(reply)")
            return SSIPReply.internalError.bytes
        }
        return reply.bytes
    }

    private func encode(
        _ event: Event, notifications: SSIPNotifications, clientID: Int, into output: inout FrontEndOutput
    ) {
        func emit(_ ssipEvent: SSIPEvent, seq: UInt64, last: Bool = false) {
            let deadline = connection.firstEventDeadlines.withLock { deadlines in
                last ? deadlines.removeValue(forKey: seq) : deadlines[seq]
            }
            guard notifications.contains(ssipEvent.notification) else { return }
            output.appendEvent(ssipEvent.bytes(messageID: Int(seq), clientID: clientID), notBefore: deadline)
        }
        switch event {
        case .queued(_, let seq, _):
            output.appendReply(queued(seq), answers: 1)
        case .started(_, let seq, _, _):
            emit(.begin, seq: seq)
        case .mark(_, let seq, let name):
            emit(.indexMark(name), seq: seq)
        case .paused(_, let seq):
            emit(.paused, seq: seq)
        case .resumed(_, let seq):
            emit(.resumed, seq: seq)
        case .finished(_, let seq, let termination):
            emit(termination.success ? .end : .canceled, seq: seq, last: true)
        case .dropped(_, let reason):
            output.appendReply(SSIPReply.dropped(reason).bytes, answers: 1)
        case .error(_, _, let message):
            output.appendReply(SSIPReply(300, "ERR " + message.uppercased()).bytes, answers: 1)
        case .word, .ok, .statusChanged, .focusChanged, .speech, .focused, .unfocused, .action, .lint, .history:
            // Not SSIP's: an SSIP connection neither asks for words nor subscribes.
            break
        }
    }
}

/// The decoder's replies travel through the dispatcher as they are.
extension SSIPReply: FrontEndReply {}

extension SSIPReply {
    /// 210 OK STOPPED, 211 OK PAUSED, 212 OK RESUMED or 213 OK CANCELED: `control` was done.
    init(done control: SpeechControl) {
        switch control {
        case .stop: self = .stopped
        case .pause: self = .paused
        case .resume: self = .resumed
        case .cancel: self = .canceled
        }
    }

    /// A message the dispatcher would not queue (the connection has `max_pending_per_client`
    /// messages waiting): no 225, so no message id and no events.
    static func dropped(_ reason: DropReason) -> SSIPReply {
        switch reason {
        case .queueFull:
            return SSIPReply(300, "ERR TOO MANY MESSAGES WAITING; WAIT FOR SOME TO END OR CANCEL THEM")
        case .offMain:
            return SSIPReply(300, "ERR MESSAGE DROPPED")
        }
    }
}
