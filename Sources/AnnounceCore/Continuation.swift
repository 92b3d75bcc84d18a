// SPDX-License-Identifier: GPL-3.0-or-later

/// The rest of a parked post's text, spoken when it continues (see ``Dispatcher/updateParking()``):
/// plain text from the start of the last word heard, SSML from just after the last mark reached,
/// inside the elements that enclose that mark, opened again.
///
/// Offsets the backend reports in ``text`` map back to the post's whole text with
/// ``sourceOffset(of:)``, so `word` offsets and `spoken_chars` count over the whole text.
struct Continuation: Equatable {
    /// What the backend speaks.
    let text: String
    /// Where, in the post's whole text, the part of ``text`` after ``prefixLength`` begins.
    let start: Int
    /// The scalars at the start of ``text`` that are not the post's text: the SSML start tags
    /// opened again.
    let prefixLength: Int

    /// The offset in the whole text of the offset `offset` in ``text``.
    func sourceOffset(of offset: Int) -> Int { start + max(0, offset - prefixLength) }

    /// The plain text `text` from its scalar offset `offset` on; nil at its start or past its end.
    static func plain(_ text: String, from offset: Int) -> Continuation? {
        let scalars = text.unicodeScalars
        guard offset > 0, offset < scalars.count else { return nil }
        let rest = String(String.UnicodeScalarView(scalars.dropFirst(offset)))
        return Continuation(text: rest, start: offset, prefixLength: 0)
    }

    /// The SSML `ssml` after its `marks`-th `<mark/>` (counted from 1), with the start tags of
    /// the elements open there (`<speak>`, `<prosody>` ...) written again before it, so it is
    /// well-formed; nil when no mark was reached or the SSML has fewer marks.
    static func ssml(_ ssml: String, afterMark marks: Int) -> Continuation? {
        guard marks > 0 else { return nil }
        let scalars = Array(ssml.unicodeScalars)
        var open: [Range<Int>] = []
        var seen = 0
        var index = 0
        while let tagStart = scalars[index...].firstIndex(of: "<") {
            guard let tagEnd = scalars[tagStart...].firstIndex(of: ">") else { return nil }
            index = tagEnd + 1
            let second = tagStart + 1 < tagEnd ? scalars[tagStart + 1] : " "
            if second == "/" {
                if !open.isEmpty { open.removeLast() }
                continue
            }
            if second == "?" || second == "!" { continue }
            if scalars[tagEnd - 1] != "/" { open.append(tagStart..<index) }
            guard isMark(scalars, at: tagStart) else { continue }
            seen += 1
            guard seen == marks else { continue }
            // A `<mark ...>` that is not self-closing is open here; its own end tag follows.
            let reopened = open.flatMap { scalars[$0] }
            var text = String.UnicodeScalarView()
            text.append(contentsOf: reopened)
            text.append(contentsOf: scalars[index...])
            return Continuation(text: String(text), start: index, prefixLength: reopened.count)
        }
        return nil
    }

    /// True when the tag at `start` is a `<mark`.
    private static func isMark(_ scalars: [Unicode.Scalar], at start: Int) -> Bool {
        guard start + 5 < scalars.count, scalars[(start + 1)..<(start + 5)].elementsEqual("mark".unicodeScalars) else {
            return false
        }
        let after = scalars[start + 5]
        return after == " " || after == "/" || after == ">" || after == "\t" || after == "\n"
    }
}
