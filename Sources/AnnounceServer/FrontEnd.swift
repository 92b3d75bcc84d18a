public import AnnounceCore
public import AnnounceProtocol
public import NIOCore

/// A wire protocol the server speaks: how a connection's bytes become the dispatcher's input,
/// and how the dispatcher's events become bytes again.
///
/// The server owns everything else: the socket, peer credentials, connection numbers, the
/// outbound limit, half-close and shutdown. The dispatcher sees only ``ClientInput`` and
/// ``Event``, whichever front-end a connection came in through. JSON lines
/// (``JSONLinesFrontEnd``) is the first front-end; speech-dispatcher's SSIP is meant to be the
/// second, with its own framing (CRLF lines, a data mode ended by a lone `.`) in its decoder and
/// its numbered, multi-line replies in its encoder.
public protocol FrontEnd: Sendable {
    /// One connection's framing and decoding state.
    associatedtype Decoder: FrontEndDecoder
    /// Writes the dispatcher's events in this protocol.
    associatedtype Encoder: FrontEndEncoder

    /// A decoder for a new connection.
    func makeDecoder() -> Decoder
    /// The encoder for a new connection.
    func makeEncoder() -> Encoder
}

/// Turns what one connection sends into the dispatcher's input. Used only on the connection's
/// event loop, so it keeps its framing state without locks.
public protocol FrontEndDecoder {
    /// Decodes every request `bytes` completes, consuming them; an unfinished request waits in
    /// the decoder for the next read.
    mutating func decode(_ bytes: inout ByteBuffer) -> DecodedInput
    /// The client finished sending: decodes what it left unfinished, as if it had ended it.
    mutating func decodeLast() -> DecodedInput
}

/// What a decoder made of one read.
public struct DecodedInput: Sendable {
    /// The dispatcher's input, in the order the client sent it.
    public var inputs: [ClientInput]
    /// True when framing is lost (e.g. a line over the limit): after `inputs` are answered the
    /// connection is closed, and the decoder reads nothing more.
    public var framingLost: Bool

    /// Creates a decoded read.
    public init(inputs: [ClientInput] = [], framingLost: Bool = false) {
        self.inputs = inputs
        self.framingLost = framingLost
    }
}

/// Writes the dispatcher's events in a front-end's protocol. Called on the dispatcher's turn
/// (the main actor), so it must be quick and must not block.
public protocol FrontEndEncoder: Sendable {
    /// Appends `events`, in order, to `bytes`.
    func encode(_ events: [Event], into bytes: inout [UInt8])
}
