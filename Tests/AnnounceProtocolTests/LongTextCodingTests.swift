// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import Testing

/// The byte-level fast paths a chapter-long text takes (counting its scalars, validating it as
/// UTF-8, writing it back into a `started` line) give exactly what the scalar-by-scalar ways gave.
@Suite("Long texts: scalar counts, UTF-8 validation and JSON strings on their fast paths")
struct LongTextCodingTests {
    static let texts = [
        "", "a", "Saved", "é", "naïve café", "日本語のテキスト", "😀👍🏽 flags 🇩🇪", "\u{301}combining", "ascii then é then 😀",
        String(repeating: "The committee met. ", count: 5_000) + "é",
        String(repeating: "ü日😀", count: 10_000),
    ]

    @Test("unicodeScalarCount is unicodeScalars.count", arguments: texts)
    func scalarCount(_ text: String) {
        #expect(text.unicodeScalarCount == text.unicodeScalars.count)
        // A substring's copy and a bridged-free slice count the same way.
        let tail = String(text.dropFirst(text.count / 2))
        #expect(tail.unicodeScalarCount == tail.unicodeScalars.count)
    }

    @Test(
        "a string with every kind of escape, at its start, middle and end, and long runs between, is written exactly and read back unchanged"
    )
    func escapedRuns() throws {
        let text =
            "\"start\\" + String(repeating: "plain é 😀 ", count: 3_000) + "\n\r\t\u{01}\u{1F}mid\"dle"
            + String(repeating: "x", count: 70_000) + "end\\\""
        let written = JSONValue.string(text).jsonText
        #expect(written.hasPrefix(#""\"start\\plain é"#))
        #expect(written.contains(#"\n\r\t\u0001\u001fmid\"dle"#))
        #expect(written.hasSuffix(#"xend\\\"""#))
        #expect(try JSONParser.parse(written) == .string(text))
    }

    @Test(
        "a long text with every non-ASCII character escaped as \\uXXXX (Python's json.dumps), surrogate pairs too, reads back as the text"
    )
    func everyNonASCIIEscaped() throws {
        let sentence = "The file Привет was saved 😀, é. "
        let text = String(repeating: sentence, count: 20_000)
        var escaped = "\""
        for unit in text.utf16 {
            if unit < 0x80 {
                escaped.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
            } else {
                escaped +=
                    "\\u" + String(repeating: "0", count: 4 - String(unit, radix: 16).count) + String(unit, radix: 16)
            }
        }
        escaped += "\""
        #expect(escaped.contains(#"\u041f"#) && escaped.contains(#"\ud83d\ude00"#))
        #expect(try JSONParser.parse(escaped) == .string(text))
    }

    @Test("invalid UTF-8 in a long string is refused, and the same bytes made valid are read")
    func invalidUTF8InALongString() {
        let run = Array(String(repeating: "a", count: 100_000).utf8)
        // 0xED 0xA0 0x80 is a surrogate: decoding replaces it with one U+FFFD, which is also 3 bytes.
        let invalid = [UInt8(ascii: "\"")] + run + [0xED, 0xA0, 0x80] + run + [UInt8(ascii: "\"")]
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(invalid) }
        let valid = [UInt8(ascii: "\"")] + run + Array("é".utf8) + run + [UInt8(ascii: "\"")]
        #expect(
            (try? JSONParser.parse(valid))
                == .string(String(repeating: "a", count: 100_000) + "é" + String(repeating: "a", count: 100_000)))
    }
}
