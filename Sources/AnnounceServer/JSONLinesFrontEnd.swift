// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceCore
public import AnnounceProtocol
public import NIOCore

/// The daemon's own protocol: one JSON object per line in both directions (Protocol.md).
public struct JSONLinesFrontEnd: FrontEnd {
    /// The longest request line, in bytes.
    public var maxLineBytes: Int
    /// The decoder's limits.
    public var limits: DecodingLimits

    /// Creates the front-end with the given limits.
    public init(maxLineBytes: Int = LineSplitter.protocolMaxLineBytes, limits: DecodingLimits = DecodingLimits()) {
        self.maxLineBytes = maxLineBytes
        self.limits = limits
    }

    /// `json`.
    public var protocolName: String { "json" }

    /// A decoder for a new connection.
    public func makeDecoder(for client: ClientID) -> JSONLinesDecoder {
        JSONLinesDecoder(maxLineBytes: maxLineBytes, limits: limits)
    }

    /// The encoder for a new connection.
    public func makeEncoder(for client: ClientID) -> JSONLinesEncoder { JSONLinesEncoder() }

    /// A `forbidden` error line.
    public func refusal(_ message: String) -> [UInt8] {
        var line: [UInt8] = []
        Event.error(id: nil, code: .forbidden, message: message).json.write(to: &line)
        line.append(UInt8(ascii: "\n"))
        return line
    }
}

/// Splits a connection's bytes into lines and decodes each: one batch per read, so the dispatcher
/// decides the lines of one read together. A line longer than `maxLineBytes` gets
/// `line-too-long` and loses framing (the connection is then closed). Blank lines are ignored; a
/// trailing `\r` is tolerated.
///
/// Written here rather than taken from NIOExtras' `LineBasedFrameDecoder`, which has no line
/// limit and hands over one line per call, not one batch per read.
public struct JSONLinesDecoder: FrontEndDecoder {
    let maxLineBytes: Int
    let limits: DecodingLimits
    /// The start of a line whose end has not arrived yet.
    private var partial: ByteBuffer?
    /// Set once framing is lost: nothing more is decoded.
    private var lost = false

    init(maxLineBytes: Int, limits: DecodingLimits) {
        self.maxLineBytes = maxLineBytes
        self.limits = limits
    }

    /// Decodes every line `incoming` completes.
    public mutating func decode(_ incoming: inout ByteBuffer) -> DecodedInput {
        guard !lost else {
            incoming.moveReaderIndex(to: incoming.writerIndex)
            return DecodedInput()
        }
        var decoded = DecodedInput()
        // Only the new bytes are searched: a long line's held start never is again.
        while let length = incoming.withUnsafeReadableBytes({ ByteScan.firstNewline(in: $0) }) {
            guard (partial?.readableBytes ?? 0) + length <= maxLineBytes else {
                return loseFraming(decoded)
            }
            var line = incoming.readSlice(length: length)!
            incoming.moveReaderIndex(forwardBy: 1)
            if var head = partial {
                head.writeBuffer(&line)
                line = head
                partial = nil
            }
            append(line, to: &decoded)
        }
        if incoming.readableBytes > 0 {
            if (partial?.readableBytes ?? 0) + incoming.readableBytes > maxLineBytes {
                return loseFraming(decoded)
            } else if partial == nil {
                partial = incoming.readSlice(length: incoming.readableBytes)
            } else {
                partial!.writeBuffer(&incoming)
            }
        }
        return decoded
    }

    /// A last line without its newline is answered as if it had one (`printf` and `echo -n`
    /// leave it off).
    public mutating func decodeLast() -> DecodedInput {
        var decoded = DecodedInput()
        if !lost, let line = partial { append(line, to: &decoded) }
        partial = nil
        return decoded
    }

    private func append(_ line: ByteBuffer, to decoded: inout DecodedInput) {
        if line.readableBytes == 0 || (line.readableBytes == 1 && line.readableBytesView.first == UInt8(ascii: "\r")) {
            return // blank lines are ignored
        }
        let result = line.withUnsafeReadableBytes { RequestLine.decode(line: $0, limits: limits) }
        decoded.inputs.append(ClientInput(decoded: result))
    }

    private mutating func loseFraming(_ decoded: DecodedInput) -> DecodedInput {
        lost = true
        partial = nil
        var decoded = decoded
        decoded.inputs.append(
            .invalid(
                RequestError(
                    .lineTooLong,
                    "a line is longer than \(maxLineBytes) bytes; the connection is closed because framing is lost")))
        decoded.framingLost = true
        return decoded
    }
}

/// Writes each event as one JSON line, all of a turn in one write.
public struct JSONLinesEncoder: FrontEndEncoder {
    /// Appends each event's JSON and a newline.
    public func encode(_ lines: [ClientLine], into output: inout FrontEndOutput) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(lines.count * 64)
        for line in lines {
            switch line {
            case .event(let event):
                event.json.write(to: &bytes)
                bytes.append(UInt8(ascii: "\n"))
            case .reply, .control:
                // Not the JSON protocol's: its decoder makes neither replies nor controls.
                break
            }
        }
        output.appendReply(bytes)
    }
}
