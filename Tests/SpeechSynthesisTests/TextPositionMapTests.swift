import Testing

// SPDX-License-Identifier: GPL-3.0-or-later
@testable import SpeechSynthesis

/// The position map decodes the text only as far as the words asked for reach, and answers as
/// a map over every scalar decoded up front did.
@Suite("Text position map: word ranges over a text decoded as it is spoken")
struct TextPositionMapTests {
    /// The word range over the whole text's scalars, as the map computed it before it decoded
    /// lazily.
    private func reference(_ scalars: [Unicode.Scalar], textPosition: Int, length: Int) -> (offset: Int, length: Int)? {
        func isWord(_ scalar: Unicode.Scalar) -> Bool {
            scalar.properties.isAlphabetic || scalar.properties.numericType != nil
        }
        guard length > 0 else { return nil }
        var start = min(max(0, textPosition - 1), scalars.count)
        var end = min(scalars.count, start + length)
        while start < scalars.count, scalars[start].properties.isWhitespace {
            start += 1
            end = min(scalars.count, end + 1)
        }
        guard start < scalars.count else { return nil }
        while end < scalars.count, end > start, isWord(scalars[end - 1]), isWord(scalars[end]) { end += 1 }
        return (start, max(1, end - start))
    }

    @Test("every position and length, forwards, backwards and past the end, as over the whole text")
    func sameAsTheWholeText() {
        let text = "  Ça va?  42 déjà-vu 😀 naïve\tend  "
        let scalars = Array(text.unicodeScalars)
        var positions: [(Int, Int)] = []
        for position in 0...scalars.count + 3 {
            for length in 0...4 { positions.append((position, length)) }
        }
        // Forwards, then backwards over a map that has decoded everything, then a fresh map
        // asked for the end first.
        var forwards = TextPositionMap(text: text, ssml: false)
        var backwards = TextPositionMap(text: text, ssml: false)
        for (position, length) in positions + positions.reversed() {
            let expected = reference(scalars, textPosition: position, length: length)
            let got = forwards.wordRange(textPosition: position, length: length, ordinal: 0)
            #expect(
                got?.offset == expected?.offset && got?.length == expected?.length,
                "position \(position) length \(length)")
        }
        for (position, length) in positions.reversed() {
            let expected = reference(scalars, textPosition: position, length: length)
            let got = backwards.wordRange(textPosition: position, length: length, ordinal: 0)
            #expect(
                got?.offset == expected?.offset && got?.length == expected?.length,
                "position \(position) length \(length)")
        }
    }

    @Test("a word cut by espeak-ng is extended to the end of its letters, decoding past where it was asked for")
    func cutWordExtended() {
        var map = TextPositionMap(text: "read the whole report aloud", ssml: false)
        #expect(map.wordRange(textPosition: 10, length: 2, ordinal: 0).map { [$0.offset, $0.length] } == [9, 5])
        #expect(map.wordRange(textPosition: 1, length: 1, ordinal: 1).map { [$0.offset, $0.length] } == [0, 4])
    }
}
