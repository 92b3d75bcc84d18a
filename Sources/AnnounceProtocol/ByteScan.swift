// SPDX-License-Identifier: Apache-2.0
internal import Glibc

/// The byte searches on the input path, each one pass over a line of up to `max_line_bytes`:
/// where a line ends, and where a JSON string's plain run ends. A chapter-long text goes through
/// each of them before its first sample, so they look at a word (8 bytes) at a time, or call
/// glibc's `memchr`, rather than a byte at a time (as the generic `firstIndex(of:)` and a byte
/// loop do).
///
/// Written here because no package in the mirror offers a JSON string scan over raw bytes, and
/// the standard library's searches are generic byte loops.
public enum ByteScan {
    /// The index of the first newline (`\n`) in `bytes` at or after `start`, or nil.
    public static func firstNewline(in bytes: UnsafeRawBufferPointer, from start: Int = 0) -> Int? {
        firstIndex(of: UInt8(ascii: "\n"), in: bytes, from: start)
    }

    /// The index of the first `byte` in `bytes` at or after `start`, or nil (glibc's `memchr`).
    public static func firstIndex(of byte: UInt8, in bytes: UnsafeRawBufferPointer, from start: Int = 0) -> Int? {
        guard start < bytes.count, let base = bytes.baseAddress else { return nil }
        guard let found = memchr(base + start, Int32(byte), bytes.count - start) else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }

    /// Where a JSON string's run of plain bytes ends, from `start`: the index of the first `"`,
    /// `\`, or control byte (below 0x20), or `bytes.count` when there is none; and whether every
    /// byte before it is ASCII (below 0x80), which makes the run valid UTF-8 without decoding it.
    public static func jsonStringRun(in bytes: UnsafeRawBufferPointer, from start: Int) -> (end: Int, isASCII: Bool) {
        let count = bytes.count
        guard start < count, let base = bytes.baseAddress else { return (max(start, count), true) }
        var index = start
        var seen: UInt64 = 0
        while index + 8 <= count {
            let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            if hasSpecial(word) { break }
            seen |= word
            index += 8
        }
        // The rest, and the word that may hold a special byte: one byte at a time.
        while index < count {
            let byte = base.load(fromByteOffset: index, as: UInt8.self)
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            seen |= UInt64(byte)
            index += 1
        }
        return (index, seen & highBits == 0)
    }

    /// How many Unicode scalars start in `bytes` (UTF-8): the bytes that do not continue a scalar
    /// (`10xxxxxx`), counted a word at a time. What `max_text_chars`, `spoken_chars` and an SSML
    /// mark's offset count.
    public static func scalarStarts(in bytes: UnsafeRawBufferPointer) -> Int {
        var continuations = 0
        var index = 0
        while index + 8 <= bytes.count {
            let word = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            // A continuation byte has its top bit set and the next one clear.
            continuations += (word & ~(word << 1) & highBits).nonzeroBitCount
            index += 8
        }
        while index < bytes.count {
            if bytes[index] & 0xC0 == 0x80 { continuations += 1 }
            index += 1
        }
        return bytes.count - continuations
    }

    private static let lowBits: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// True when some byte of `word` may be `"`, `\` or below 0x20. Never false when one is
    /// (a borrow can only flag a byte above a true hit, never hide one), so a word it passes has
    /// none; a flagged word is looked at byte by byte.
    @inline(__always)
    static func hasSpecial(_ word: UInt64) -> Bool {
        let quote = word ^ (lowBits &* UInt64(UInt8(ascii: "\"")))
        let backslash = word ^ (lowBits &* UInt64(UInt8(ascii: "\\")))
        let zeroQuote = (quote &- lowBits) & ~quote
        let zeroBackslash = (backslash &- lowBits) & ~backslash
        let control = (word &- lowBits &* 0x20) & ~word
        return (zeroQuote | zeroBackslash | control) & highBits != 0
    }
}
