// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceCore
public import NIOCore

/// A wire protocol the server speaks: how a connection's bytes become the dispatcher's input,
/// and how the dispatcher's lines become bytes again.
///
/// The server owns everything else: the socket, peer credentials, connection numbers, the
/// outbound limit, half-close and shutdown. The dispatcher sees only ``ClientInput`` and
/// ``ClientLine``, whichever front-end a connection came in through. JSON lines
/// (``JSONLinesFrontEnd``) is the first front-end; speech-dispatcher's SSIP (the `AnnounceSSIP`
/// module) is the second, with its own framing (CRLF lines, a data mode ended by a lone `.`) in
/// its decoder and its numbered, multi-line replies and events in its encoder.
public protocol FrontEnd: Sendable {
    /// One connection's framing and decoding state.
    associatedtype Decoder: FrontEndDecoder
    /// Writes the dispatcher's lines in this protocol.
    associatedtype Encoder: FrontEndEncoder

    /// The protocol's name, as the daemon's `status` counts connections by it (`json`, `ssip`).
    var protocolName: String { get }
    /// A decoder for the new connection `client`.
    func makeDecoder(for client: ClientID) -> Decoder
    /// The encoder for the new connection `client`.
    func makeEncoder(for client: ClientID) -> Encoder
    /// What a peer of another user is sent before its connection is closed.
    func refusal(_ message: String) -> [UInt8]
}

/// Turns what one connection sends into the dispatcher's input. Used only on the connection's
/// event loop, so it keeps its framing state without locks.
public protocol FrontEndDecoder {
    /// Decodes every request `bytes` completes, consuming them; an unfinished request waits in
    /// the decoder for the next read.
    mutating func decode(_ bytes: inout ByteBuffer) -> DecodedInput
    /// The client finished sending: decodes what it left unfinished, as if it had ended it.
    mutating func decodeLast() -> DecodedInput
    /// The connection closed.
    mutating func closed()
}

extension FrontEndDecoder {
    /// Nothing to do by default.
    public mutating func closed() {}
}

/// What a decoder made of one read.
public struct DecodedInput: Sendable {
    /// The dispatcher's input, in the order the client sent it.
    public var inputs: [ClientInput]
    /// True when framing is lost (e.g. a line over the limit) or the client said goodbye: after
    /// `inputs` are answered the connection is closed, and the decoder reads nothing more.
    public var framingLost: Bool

    /// Creates a decoded read.
    public init(inputs: [ClientInput] = [], framingLost: Bool = false) {
        self.inputs = inputs
        self.framingLost = framingLost
    }
}

/// Writes the dispatcher's lines in a front-end's protocol. Called on the dispatcher's turn
/// (the main actor), so it must be quick and must not block; a reply (``ClientLine/reply(_:)``)
/// and a message's `queued` event are also encoded on the connection's event loop when they are
/// written there directly (``ConnectionSink``), so encoding them must touch nothing but the
/// encoder's own locked state.
public protocol FrontEndEncoder: Sendable {
    /// Appends `lines`, in order, to `output`.
    func encode(_ lines: [ClientLine], into output: inout FrontEndOutput)

    /// Appends the bytes of `line`, a reply (``ClientLine/reply(_:)``) or a message's `queued`
    /// event that the connection writes straight from its event loop, to `buffer`: the bytes
    /// ``encode(_:into:)`` gives the line, with the same effects. A front-end whose clients send
    /// one command at a time and wait for each answer writes the answer from here, with no
    /// intermediate arrays (the default goes through ``FrontEndOutput``).
    func encodeDirect(_ line: ClientLine, into buffer: inout ByteBuffer)
}

extension FrontEndEncoder {
    /// Encodes `line` with ``encode(_:into:)`` and appends its writes' bytes.
    public func encodeDirect(_ line: ClientLine, into buffer: inout ByteBuffer) {
        var output = FrontEndOutput()
        encode([line], into: &output)
        for write in output.writes { buffer.writeBytes(write.bytes) }
    }
}

/// The writes one dispatcher turn makes on a connection, in order.
///
/// A reply is written at once. An event may be held until a deadline (SSIP holds a message's
/// first event a moment after its `225` reply, for clients that register their callback only
/// once they have read the reply); an event behind a held one waits behind it, so events keep
/// their order, while replies, which clients wait for, are never held.
///
/// Each write says how many of the connection's inputs it answers (``ClientInput/answerLines``):
/// the sink counts them off against what the connection handed the dispatcher, and writes a
/// front-end's own reply straight from the event loop only when nothing is owed.
public struct FrontEndOutput: Sendable {
    /// One write.
    public struct Write: Sendable, Hashable {
        /// The bytes.
        public var bytes: [UInt8]
        /// True for an event (which keeps its place behind held events).
        public var isEvent: Bool
        /// Not written before this moment (events only).
        public var notBefore: NIODeadline?
        /// How many of the connection's inputs the write answers.
        public var answers: Int = 0
    }

    /// The writes, in order.
    public private(set) var writes: [Write] = []

    /// No writes yet.
    public init() {}

    /// Appends a reply's bytes (joined to the previous reply, one write); `answers` of the
    /// connection's inputs it answers.
    public mutating func appendReply(_ bytes: [UInt8], answers: Int = 0) {
        if let last = writes.indices.last, !writes[last].isEvent {
            writes[last].bytes += bytes
            writes[last].answers += answers
        } else {
            writes.append(Write(bytes: bytes, isEvent: false, answers: answers))
        }
    }

    /// Appends an event's bytes, a write of its own, held until `notBefore` when given (or behind
    /// a held event); `answers` of the connection's inputs it answers (a control's reply, which
    /// keeps its place among events).
    public mutating func appendEvent(_ bytes: [UInt8], notBefore: NIODeadline? = nil, answers: Int = 0) {
        writes.append(Write(bytes: bytes, isEvent: true, notBefore: notBefore, answers: answers))
    }
}
