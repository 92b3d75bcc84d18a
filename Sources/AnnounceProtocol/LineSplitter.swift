// SPDX-License-Identifier: Apache-2.0
/// Splits a byte stream into newline-terminated lines, with a limit on a line's length: the
/// framing of the wire protocol, for both ends and free of any I/O library.
///
/// Complete lines inside one chunk are handed on where they lie, without a copy; only the
/// unfinished line at a chunk's end is kept, and a line that crosses chunks is joined once.
/// Nothing is shifted per chunk, and each byte is searched for a newline once, when its chunk
/// arrives (never again as a long line's held bytes grow).
public struct LineSplitter: Sendable {
    /// The protocol's `max_line_bytes` default: the longest line, without its newline (4 MiB, so
    /// that a text of `max_text_chars` fits escaped).
    public static let protocolMaxLineBytes = 4_194_304

    /// The longest line accepted, in bytes, without its newline.
    public let maxLineBytes: Int
    /// The bytes of a line whose newline has not arrived yet.
    private var partial: [UInt8] = []

    /// A line longer than ``maxLineBytes``: framing is lost, so the connection should close.
    public struct LineTooLong: Error, Sendable, Hashable, CustomStringConvertible {
        /// The limit that was passed.
        public var maxLineBytes: Int
        /// "a line is longer than 4194304 bytes".
        public var description: String { "a line is longer than \(maxLineBytes) bytes" }
    }

    /// A splitter for lines of at most `maxLineBytes` bytes.
    public init(maxLineBytes: Int = LineSplitter.protocolMaxLineBytes) {
        self.maxLineBytes = maxLineBytes
    }

    /// The bytes of an unfinished line held, waiting for its newline.
    public var bufferedByteCount: Int { partial.count }

    /// Takes the next `chunk` of the stream and calls `line` with each line it completes (without
    /// the newline), in order.
    /// - Throws: ``LineTooLong`` as soon as a line passes ``maxLineBytes``; the lines before it
    ///   have been handed on, and the splitter should not be used again.
    public mutating func split(_ chunk: UnsafeRawBufferPointer, line: (UnsafeRawBufferPointer) -> Void)
        throws(LineTooLong)
    {
        var start = 0
        while start < chunk.count {
            guard let newline = ByteScan.firstNewline(in: chunk, from: start) else { break }
            if partial.isEmpty {
                guard newline - start <= maxLineBytes else { throw LineTooLong(maxLineBytes: maxLineBytes) }
                line(UnsafeRawBufferPointer(rebasing: chunk[start..<newline]))
            } else {
                guard partial.count + newline - start <= maxLineBytes else {
                    throw LineTooLong(maxLineBytes: maxLineBytes)
                }
                partial.append(contentsOf: chunk[start..<newline])
                partial.withUnsafeBytes { line($0) }
                partial.removeAll(keepingCapacity: partial.count <= 4096)
            }
            start = newline + 1
        }
        guard start < chunk.count else { return }
        guard partial.count + chunk.count - start <= maxLineBytes else { throw LineTooLong(maxLineBytes: maxLineBytes) }
        partial.append(contentsOf: chunk[start...])
    }
}
