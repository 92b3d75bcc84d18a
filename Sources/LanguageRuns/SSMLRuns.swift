// SPDX-License-Identifier: GPL-3.0-or-later

/// A stretch of a post's SSML in one language, as SSML of its own.
public struct SSMLRun: Equatable, Sendable {
    /// The run's language (see `LanguageRun.language`), or an `xml:lang` as the SSML gave it.
    public var language: String
    /// The part of the post's SSML the run speaks, in Unicode scalars.
    public var range: Range<Int>
    /// Well-formed SSML for the run: the elements open where `range` starts, opened again as the
    /// post's SSML opens them (`<speak>`, `<prosody ...>`, ...), then the post's SSML in `range`,
    /// then the elements still open where it ends, closed. Marks in `range` stay in it, in order.
    public var ssml: String
    /// Where the post's SSML in `range` starts inside `ssml`, in Unicode scalars: a position `p`
    /// in `ssml` (a mark's offset, a spoken character) is `range.lowerBound + p - sourceOffset`
    /// in the post's SSML.
    public var sourceOffset: Int

    /// A run in `language` of the post's SSML in `range`, spoken as `ssml`, where the post's SSML
    /// starts at `sourceOffset`.
    public init(language: String, range: Range<Int>, ssml: String, sourceOffset: Int) {
        self.language = language
        self.range = range
        self.ssml = ssml
        self.sourceOffset = sourceOffset
    }
}

extension LanguageRunSplitter {
    /// The runs of `ssml`, a post in `language`: `xml:lang` on `<speak>`, `<p>`, `<s>`, `<voice>`
    /// and `<lang>` (on any element, in fact) gives the language of what is inside, and the text
    /// between tags is cut as plain text is (`runs(of:language:)`) in that language. `off` gives
    /// one run, the whole SSML in `language`.
    ///
    /// A tag with nothing to say goes with what it surrounds: an opening tag with the run after
    /// it, a closing tag, space and comments with the run before.
    public func runs(ofSSML ssml: String, language: String) -> [SSMLRun] {
        if switching == .off || (switching == .script && Self.hasNothingToSwitch(ssml, language: language)) {
            return [SSMLRun(language: language, range: 0..<ssml.unicodeScalars.count, ssml: ssml, sourceOffset: 0)]
        }
        let scalars = Array(ssml.unicodeScalars)
        let whole = [SSMLRun(language: language, range: 0..<scalars.count, ssml: ssml, sourceOffset: 0)]
        let parts = SSMLParts(scalars: scalars, language: language, splitter: self)
        var runs: [SSMLRun] = []
        var start = 0
        while start < parts.pieces.count {
            var end = start + 1
            while end < parts.pieces.count, parts.pieces[end].language == parts.pieces[start].language { end += 1 }
            runs.append(parts.run(from: start, to: end))
            start = end
        }
        return runs.isEmpty ? whole : runs
    }

    /// Whether SSML in `language` is one run by script without being parsed: plain ASCII, with no
    /// `xml:lang`, in a language written in Latin letters (so a chapter of SSML is not parsed twice).
    static func hasNothingToSwitch(_ ssml: String, language: String) -> Bool {
        guard LanguageScripts.writes(LanguageScripts.primary(language), in: .latin) else { return false }
        var ssml = ssml
        return ssml.withUTF8 { bytes in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return false }
            let attribute = Array("xml:lang".utf8)
            guard bytes.count >= attribute.count else { return true }
            for start in 0...(bytes.count - attribute.count) where bytes[start] == attribute[0] {
                if UnsafeBufferPointer(rebasing: bytes[start..<(start + attribute.count)]).elementsEqual(attribute) {
                    return false
                }
            }
            return true
        }
    }
}

/// An SSML text cut into pieces, each a tag or a stretch of text in one language, with the
/// elements open where each starts.
struct SSMLParts {
    struct Piece {
        var range: Range<Int>
        var language: String
        /// Whether it says something: text other than space, or an empty element (`<mark/>`).
        var speaks: Bool
        /// Whether it is an opening tag (which goes with the run after it when it says nothing).
        var opens: Bool
        /// The elements open where it starts, outermost first: name and opening tag's range.
        var open: [(name: String, tag: Range<Int>)]
    }

    let scalars: [Unicode.Scalar]
    private(set) var pieces: [Piece] = []
    /// The elements open at the end of the text.
    private var openAtEnd: [(name: String, tag: Range<Int>)] = []

    init(scalars: [Unicode.Scalar], language: String, splitter: LanguageRunSplitter) {
        self.scalars = scalars
        var open: [(name: String, tag: Range<Int>, language: String)] = []
        for token in SSMLToken.tokens(of: scalars) {
            let current = open.last?.language ?? language
            let context = open.map { (name: $0.name, tag: $0.tag) }
            switch token.kind {
            case .text:
                let text = String(String.UnicodeScalarView(scalars[token.range]))
                for run in splitter.runs(of: text, language: current) {
                    let start = token.range.lowerBound
                    let range = (start + run.range.lowerBound)..<(start + run.range.upperBound)
                    let speaks = scalars[range].contains { !$0.properties.isWhitespace }
                    pieces.append(
                        Piece(range: range, language: run.language, speaks: speaks, opens: false, open: context))
                }
            case .open(let name, let tagLanguage):
                pieces.append(
                    Piece(
                        range: token.range, language: tagLanguage ?? current, speaks: false, opens: true, open: context)
                )
                open.append((name, token.range, tagLanguage ?? current))
            case .close(let name):
                if let index = open.lastIndex(where: { $0.name == name }) {
                    open.removeSubrange(index...)
                }
                pieces.append(Piece(range: token.range, language: current, speaks: false, opens: false, open: context))
            case .empty(_, let tagLanguage):
                pieces.append(
                    Piece(
                        range: token.range, language: tagLanguage ?? current, speaks: true, opens: false, open: context)
                )
            case .other:
                pieces.append(Piece(range: token.range, language: current, speaks: false, opens: false, open: context))
            }
        }
        openAtEnd = open.map { (name: $0.name, tag: $0.tag) }
        attachSilentPieces()
    }

    /// Gives each piece that says nothing the language of the piece that says something next to
    /// it: after it for an opening tag, before it for the rest (either, when there is none on
    /// that side). With nothing said at all, every piece keeps its own language.
    private mutating func attachSilentPieces() {
        var before: [String?] = []
        var last: String?
        for piece in pieces {
            before.append(last)
            if piece.speaks { last = piece.language }
        }
        var after: [String?] = Array(repeating: nil, count: pieces.count)
        var next: String?
        for index in pieces.indices.reversed() {
            after[index] = next
            if pieces[index].speaks { next = pieces[index].language }
        }
        for index in pieces.indices where !pieces[index].speaks {
            let preferred = pieces[index].opens ? after[index] ?? before[index] : before[index] ?? after[index]
            if let language = preferred { pieces[index].language = language }
        }
    }

    /// The run of pieces `start..<end`.
    func run(from start: Int, to end: Int) -> SSMLRun {
        let range = pieces[start].range.lowerBound..<pieces[end - 1].range.upperBound
        let openAtStart = pieces[start].open
        let stillOpen = end < pieces.count ? pieces[end].open : openAtEnd
        var ssml = ""
        for element in openAtStart { ssml.unicodeScalars.append(contentsOf: scalars[element.tag]) }
        let sourceOffset = ssml.unicodeScalars.count
        ssml.unicodeScalars.append(contentsOf: scalars[range])
        for element in stillOpen.reversed() { ssml += "</\(element.name)>" }
        return SSMLRun(language: pieces[start].language, range: range, ssml: ssml, sourceOffset: sourceOffset)
    }
}
