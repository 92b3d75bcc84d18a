// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import Testing

/// The word-at-a-time and `memchr` scans of the input path find exactly what a byte loop finds:
/// a special byte at every place in an 8-byte word, at the buffer's end, after multi-byte UTF-8,
/// and nothing where there is nothing.
@Suite("Byte scans: newlines and JSON string runs, a word at a time")
struct ByteScanTests {
    /// What the scans must agree with: the first `"`, `\` or control byte, one byte at a time.
    static func slowRun(_ bytes: [UInt8], from start: Int) -> (end: Int, isASCII: Bool) {
        var index = start
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\"),
            bytes[index] >= 0x20
        {
            index += 1
        }
        return (index, bytes[start..<index].allSatisfy { $0 < 0x80 })
    }

    static func run(_ bytes: [UInt8], from start: Int = 0) -> (end: Int, isASCII: Bool) {
        bytes.withUnsafeBytes { ByteScan.jsonStringRun(in: $0, from: start) }
    }

    static let specials: [UInt8] = [UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x00, 0x01, 0x09, 0x0A, 0x0D, 0x1F]

    @Test(
        "a special byte at each position of the first three words and in the tail is found there", arguments: specials)
    func specialAtEveryPosition(_ special: UInt8) {
        for length in [1, 7, 8, 9, 16, 23, 24, 25] {
            for position in 0..<length {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                bytes[position] = special
                let found = Self.run(bytes)
                #expect(found.end == position, "length \(length), special \(special) at \(position)")
                #expect(found.isASCII)
            }
        }
    }

    @Test("bytes next to the special ones (0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7F, 0x80, 0xFF) are plain")
    func neighboursArePlain() {
        let plain: [UInt8] = [0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7F, 0x80, 0xFF, 0x22 ^ 0x80, 0x5C ^ 0x80, 0x1F | 0x80]
        for length in [1, 8, 13, 64] {
            let bytes = (0..<length).map { plain[$0 % plain.count] }
            #expect(Self.run(bytes).end == length)
            #expect(Self.run(bytes + [UInt8(ascii: "\"")]).end == length)
        }
    }

    @Test("no special byte: the run ends at the buffer's end, from any start")
    func toTheEnd() {
        let bytes = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8)
        for start in 0...bytes.count {
            #expect(Self.run(bytes, from: start) == (bytes.count, true))
        }
        #expect([UInt8]().withUnsafeBytes { ByteScan.jsonStringRun(in: $0, from: 0) } == (0, true))
    }

    @Test("multi-byte UTF-8 before the end: not ASCII, and the end is still the special byte's place")
    func multiByte() {
        for text in ["é", "日本語", "😀", "abcdefgé", "abcdefghé", "é" + String(repeating: "x", count: 40)] {
            for tail in ["\"", "\\", "\n", ""] {
                let bytes = Array((text + tail).utf8)
                let found = Self.run(bytes)
                #expect(found.end == text.utf8.count)
                #expect(!found.isASCII)
            }
        }
        // Multi-byte text after the special byte does not count.
        #expect(Self.run(Array("abc\"é".utf8)) == (3, true))
    }

    @Test("random bytes, from random starts: the same as a byte loop")
    func random() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let count = Int.random(in: 0...80, using: &generator)
            // Mostly plain, sometimes special or high.
            let bytes = (0..<count).map { _ -> UInt8 in
                switch Int.random(in: 0..<40, using: &generator) {
                case 0: Self.specials.randomElement(using: &generator)!
                case 1: UInt8.random(in: 0x80...0xFF, using: &generator)
                default: UInt8.random(in: 0x20...0x7E, using: &generator)
                }
            }
            let start = Int.random(in: 0...count, using: &generator)
            let found = Self.run(bytes, from: start)
            let expected = Self.slowRun(bytes, from: start)
            #expect(found == expected, "\(bytes) from \(start)")
        }
    }

    @Test("newlines: the first at or after the start, at each position and at the end; none")
    func newlines() {
        for length in [1, 2, 8, 9, 100] {
            for position in 0..<length {
                var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: length)
                bytes[position] = UInt8(ascii: "\n")
                bytes.withUnsafeBytes { raw in
                    #expect(ByteScan.firstNewline(in: raw) == position)
                    #expect(ByteScan.firstNewline(in: raw, from: position) == position)
                    #expect(ByteScan.firstNewline(in: raw, from: position + 1) == nil)
                }
            }
        }
        [UInt8]().withUnsafeBytes { #expect(ByteScan.firstNewline(in: $0) == nil) }
    }
}

/// The JSON reader on the word-at-a-time scan: a quote, backslash or control byte at each place
/// of a word inside a string is read as before, and invalid UTF-8 is still refused.
@Suite("JSON strings on the word-at-a-time scan")
struct JSONStringScanTests {
    @Test("an escape or a closing quote at each position of a word, after ASCII and after UTF-8")
    func escapesAtEveryPosition() throws {
        for prefix in ["", "é", "日本", "😀x"] {
            for length in 0..<20 {
                let plain = prefix + String(repeating: "a", count: length)
                #expect(try JSONParser.parse(Array("\"\(plain)\"".utf8)) == .string(plain))
                #expect(try JSONParser.parse(Array("\"\(plain)\\n\(plain)\"".utf8)) == .string(plain + "\n" + plain))
                #expect(try JSONParser.parse(Array("\"\(plain)\\\"b\"".utf8)) == .string(plain + "\"b"))
                #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(Array("\"\(plain)\u{01}\"".utf8)) }
                #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(Array("\"\(plain)\\n\(plain)\t\"".utf8)) }
                #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(Array("\"\(plain)".utf8)) }
            }
        }
    }

    @Test("invalid UTF-8 at each position of a word is refused, with and without escapes before it")
    func invalidUTF8AtEveryPosition() {
        for invalid: [UInt8] in [[0xFF], [0xC3], [0x80], [0xED, 0xA0, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80]] {
            for length in 0..<17 {
                let before = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                let quote = [UInt8(ascii: "\"")]
                #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(quote + before + invalid + quote) }
                #expect(throws: JSONSyntaxError.self) {
                    try JSONParser.parse(quote + Array("\\n".utf8) + before + invalid + quote)
                }
                #expect(throws: JSONSyntaxError.self) {
                    try JSONParser.parse(quote + before + invalid + Array("\\n".utf8) + quote)
                }
            }
        }
    }

    @Test("a line in a buffer is read in place: the bytes after the value are not part of it")
    func inPlace() throws {
        let bytes = Array(#"{"op":"announce","text":"Saved"} trailing"#.utf8)
        let line = bytes[..<32]
        #expect(try JSONParser.parse(line).objectValue?["text"] == .string("Saved"))
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(bytes) }
        let request = bytes.withUnsafeBytes { RequestLine.decode(line: UnsafeRawBufferPointer(rebasing: $0[..<32])) }
        guard case .speech(let post) = try request.get().request else {
            Issue.record("not a speech post: \(request)")
            return
        }
        #expect(post.subject == .text("Saved"))
    }
}
