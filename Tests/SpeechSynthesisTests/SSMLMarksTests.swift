// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import Testing

@testable import SpeechSynthesis

/// SSML marks are found in one pass over the text's bytes, with their places counted in Unicode
/// scalars (where espeak-ng's word positions count).
@Suite("SSML marks: names and places in scalars")
struct SSMLMarksTests {
    @Test("a mark's offset counts the scalars before its tag, whatever their UTF-8 length")
    func offsetsInScalars() {
        let text = #"<speak>é<mark name='a'/>ü😀<mark name="b"/>日本<mark  name="c" /></speak>"#
        let scalars = Array(text.unicodeScalars)
        let expected = ["a", "b", "c"].map { name -> SSMLMarks.Mark in
            let tag = Array(
                (name == "c" ? #"<mark  name="c""# : name == "b" ? #"<mark name="b""# : "<mark name='a'").unicodeScalars
            )
            let offset = (0...scalars.count - tag.count).first { Array(scalars[$0..<$0 + tag.count]) == tag }!
            return SSMLMarks.Mark(name: name, offset: offset)
        }
        #expect(SSMLMarks.marks(in: text) == expected)
        #expect(expected.map(\.offset) == [8, 26, 44])
    }

    @Test("tags that are not named marks are passed over; a tag left open ends the search")
    func malformed() {
        #expect(
            SSMLMarks.names(
                in: #"<speak><mark/>a<mark name=x/>b<mark name="ok" /><marker name="m"/><mark name="é😀"/></speak>"#)
                == ["ok", "m", "é😀"])
        #expect(SSMLMarks.names(in: #"<speak><mark name="a"/><mark name="b""#) == ["a"])
        #expect(SSMLMarks.names(in: #"<mark name=""/><mark name='unclosed/>"#) == [""])
    }

    @Test("a mark per sentence over a chapter: every mark, in order, at its place")
    func chapter() {
        var text = "<speak>"
        var offsets: [Int] = []
        for index in 0..<5_000 {
            offsets.append(text.unicodeScalars.count)
            text += "<mark name='m\(index)'/>Ça va, ünd so 😀. "
        }
        text += "</speak>"
        let marks = SSMLMarks.marks(in: text)
        #expect(marks.map(\.name) == (0..<5_000).map { "m\($0)" })
        #expect(marks.map(\.offset) == offsets)
    }
}

/// The scalar count under the mark scan: continuation bytes are not counted, a word at a time.
@Suite("SSML marks: scalars counted a word at a time")
struct SSMLScalarStartsTests {
    @Test(
        "every text and every slice of it counts as many scalars as it has",
        arguments: ["", "a", "abcdefgh", "é", "aé😀日本語xyz", String(repeating: "ü日😀a", count: 9)])
    func scalarStarts(_ text: String) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { raw in
            for start in 0...bytes.count {
                // Slices starting on a scalar's first byte, so the count is exact.
                guard start == bytes.count || bytes[start] & 0xC0 != 0x80 else { continue }
                let slice = UnsafeRawBufferPointer(rebasing: raw[start...])
                #expect(ByteScan.scalarStarts(in: slice) == String(decoding: slice, as: UTF8.self).unicodeScalars.count)
            }
        }
    }

    @Test("a mark after multi-byte text at each position of a word is placed in scalars")
    func markAfterMultiByte() {
        for count in 0..<17 {
            let before = String(repeating: "é", count: count) + String(repeating: "a", count: count % 5)
            let text = "<speak>" + before + "<mark name='m'/>x</speak>"
            #expect(SSMLMarks.marks(in: text) == [SSMLMarks.Mark(name: "m", offset: 7 + before.unicodeScalars.count)])
        }
    }
}
