import Testing

// SPDX-License-Identifier: GPL-3.0-or-later
@testable import AnnounceCore

/// The rest of a message set aside while paused: plain text from a word, SSML after a mark with
/// the elements around that mark opened again, offsets mapped back to the whole text.
@Suite("Continuation: where a message set aside continues")
struct ContinuationTests {
    @Test("plain text continues from the word's offset; offsets map back to the whole text")
    func plainText() throws {
        let text = "Zwölf Boxkämpfer jagen Viktor quer über den großen Sylter Deich."
        let offset = Array(text.unicodeScalars).firstIndex(of: "j")!
        let rest = try #require(Continuation.plain(text, from: offset))
        #expect(rest.text == "jagen Viktor quer über den großen Sylter Deich.")
        #expect(rest.sourceOffset(of: 6) == offset + 6)
        #expect(Continuation.plain(text, from: 0) == nil, "from the start: the whole text")
        #expect(Continuation.plain(text, from: text.unicodeScalars.count) == nil)
    }

    @Test("SSML continues after the n-th mark, inside the elements that enclose it, and not inside closed ones")
    func ssmlAfterMark() throws {
        let ssml =
            #"<speak><s>One <mark name="a"/>two.</s><prosody rate="fast"> Three <mark name='b'/>four"#
            + #" <emphasis>five</emphasis><mark name="c"/> six.</prosody></speak>"#
        let afterB = try #require(Continuation.ssml(ssml, afterMark: 2))
        #expect(
            afterB.text
                == #"<speak><prosody rate="fast">four <emphasis>five</emphasis><mark name="c"/> six.</prosody></speak>"#
        )
        let prefix = #"<speak><prosody rate="fast">"#.unicodeScalars.count
        #expect(afterB.prefixLength == prefix)
        let whole = Array(ssml.unicodeScalars)
        #expect(whole[afterB.sourceOffset(of: prefix)] == "f", "offset of `four` in the whole text")
        let afterA = try #require(Continuation.ssml(ssml, afterMark: 1))
        #expect(afterA.text.hasPrefix("<speak><s>two.</s>"))
        #expect(Continuation.ssml(ssml, afterMark: 0) == nil, "no mark reached: from the start")
        #expect(Continuation.ssml(ssml, afterMark: 4) == nil, "fewer marks than reached")
    }
}
