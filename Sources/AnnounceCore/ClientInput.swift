// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceProtocol

/// What a front-end hands the dispatcher for one connection: a request it decoded, a post the
/// dispatcher must drop because it was made off the main thread, or a line it could not decode.
///
/// A front-end makes these on the connection's event loop, where it decodes, and hands them over
/// in the order the client sent them; the dispatcher answers them in that order.
public enum ClientInput: Sendable {
    /// A request to carry out.
    case request(RequestLine)
    /// A speech post whose `thread` is not the main thread: answered `dropped` with reason
    /// `off-main` (UIKit ignores posts from background queues; the daemon says so). The post,
    /// when given, is what the history keeps of it.
    case postOffMain(id: RequestID?, post: SpeechPost? = nil)
    /// A line that is not a request: answered with its `error` line.
    case invalid(RequestError)
    /// A request the front-end answered itself (SSIP's `SET`, `GET`, `LIST` ...): the reply is
    /// handed back unopened (``ClientLine/reply(_:)``) in its place among the connection's lines,
    /// after the answers to what came before.
    case answered(any FrontEndReply)
    /// A message to queue (a front-end's own kind of post). It is answered `queued` with its
    /// sequence number, or `dropped` or `error`.
    case message(MessagePost)
    /// A message whose `queued` answer the front-end's connection already wrote from its event
    /// loop, with the sequence number it reserved for it (``Dispatcher/reserveSequenceNumber()``):
    /// the dispatcher queues it under that number and never answers it. One the dispatcher will
    /// not queue (too many waiting, options it refuses) ends at once with its terminal line.
    case queuedMessage(MessagePost, seq: UInt64)
    /// Stop, cancel, pause or resume the messages of `scope`; answered with
    /// ``ClientLine/control(_:)``: ``ControlAnswer/done(_:)`` once done, or
    /// ``ControlAnswer/unknownClient(_:)`` when the scope names a connection that does not exist.
    case control(SpeechControl, ClientScope)
    /// The connection names itself (SSIP's `CLIENT_NAME`): `speech` subscribers and `status`
    /// show the name.
    case name(String)

    /// How many lines the dispatcher answers this input with that are not events: one for a
    /// front-end's reply (``answered(_:)``), a message (`queued`, `dropped` or `error`) and a
    /// control (``ClientLine/control(_:)``), none for a name or a message already answered
    /// (``queuedMessage(_:seq:)``). The JSON protocol's inputs count none: its front-end writes
    /// nothing from the event loop, so nothing counts its answers.
    public var answerLines: Int {
        switch self {
        case .answered, .message, .control: return 1
        case .name, .queuedMessage, .request, .postOffMain, .invalid: return 0
        }
    }

    /// The input for one decoded line of the JSON protocol. The main-thread rule is decided here,
    /// where the line is decoded, so its `dropped` line keeps its place among the answers.
    public init(decoded line: Result<RequestLine, RequestError>) {
        switch line {
        case .success(let request):
            if case .speech(let post) = request.request, !post.options.isMainThread {
                self = .postOffMain(id: request.id, post: post)
            } else {
                self = .request(request)
            }
        case .failure(let error):
            self = .invalid(error)
        }
    }
}

/// A reply a front-end made itself, as a value of its own protocol (SSIP's `SSIPReply`). The
/// dispatcher never opens it: it carries it, in its place among the connection's lines, to the
/// front-end's encoder, the only place it becomes bytes.
public protocol FrontEndReply: Sendable, Hashable {}
