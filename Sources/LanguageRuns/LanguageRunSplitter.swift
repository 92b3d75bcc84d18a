// SPDX-License-Identifier: GPL-3.0-or-later

/// Cuts a post's plain text into runs of one language each, by the scripts its letters are
/// written in (`script`), and by a language identifier for phrases in a script several of the
/// user's languages share (`detect`).
///
/// Digits, punctuation, spaces and symbols stay with the run around them: between two runs, the
/// first keeps them up to and including the last space, and the second takes the rest (an
/// opening quote or bracket); where there is no space, the first keeps them all. A single letter
/// of a foreign script inside a word is not a run.
public struct LanguageRunSplitter: Sendable {
    /// How the text is cut.
    public var switching: LanguageSwitching
    /// The user's languages, in order: where a script serves several languages, the first of
    /// these written in it is the one a run in that script is read as.
    public var languages: [String]
    /// What `detect` asks about phrases of several words.
    public var identifier: any LanguageIdentifier

    /// A splitter cutting by `switching`, for a user who speaks `languages` (in order of
    /// preference), asking `identifier` about phrases in `detect` mode.
    public init(
        switching: LanguageSwitching, languages: [String], identifier: any LanguageIdentifier = CLD2LanguageIdentifier()
    ) {
        self.switching = switching
        self.languages = languages
        self.identifier = identifier
    }

    /// The runs of `text`, a post in `language`: one run at least (the whole text in `language`
    /// when nothing switches), in text order, together covering the text.
    public func runs(of text: String, language: String) -> [LanguageRun] {
        let post = LanguageScripts.primary(language)
        let whole = [LanguageRun(language: language, range: 0..<text.unicodeScalars.count, text: text)]
        if switching == .off { return whole }
        // Plain ASCII in a language written in Latin letters has nothing to switch to, unless a
        // phrase may be another Latin language.
        if switching == .script, LanguageScripts.writes(post, in: .latin), text.utf8.allSatisfy({ $0 < 0x80 }) {
            return whole
        }
        let scalars = Array(text.unicodeScalars)
        var pieces = LetterPiece.pieces(of: scalars)
        guard !pieces.isEmpty else { return whole }
        assignLanguages(to: &pieces, post: language)
        if switching == .detect { detectLanguages(of: &pieces, in: scalars, post: language) }
        return Self.runs(of: pieces, in: scalars, language: language)
    }

    /// Gives each piece the language its script implies for a post in `post`.
    private func assignLanguages(to pieces: inout [LetterPiece], post: String) {
        let postPrimary = LanguageScripts.primary(post)
        var index = 0
        while index < pieces.count {
            // A stretch of Han and kana (with nothing but neutral characters between): its Han is
            // Japanese when there is kana in it.
            var end = index + 1
            if pieces[index].script.isCJK {
                while end < pieces.count, pieces[end].script.isCJK { end += 1 }
            }
            let kanaNear = pieces[index..<end].contains { $0.script == .hiragana || $0.script == .katakana }
            for piece in index..<end {
                pieces[piece].language = language(
                    of: pieces[piece].script, kanaNear: kanaNear, post: post, postPrimary: postPrimary)
            }
            index = end
        }
    }

    /// The language a piece in `script` is read as, in a post in `post`.
    private func language(of script: Script, kanaNear: Bool, post: String, postPrimary: Substring) -> String {
        if LanguageScripts.writes(postPrimary, in: script) { return post }
        if script == .han && kanaNear {
            return languages.first { LanguageScripts.primary($0) == "ja" } ?? "ja"
        }
        if let mine = languages.first(where: { reads(LanguageScripts.primary($0), script) }) { return mine }
        return LanguageScripts.readers(of: script).first.map(String.init) ?? post
    }

    /// Whether a foreign run in `script` may be read as `language`.
    private func reads(_ language: Substring, _ script: Script) -> Bool {
        script == .latin
            ? LanguageScripts.writes(language, in: .latin) : LanguageScripts.readers(of: script).contains(language)
    }

    /// The languages of the post and the user that a phrase in `script` may be in, the post's
    /// first, one per primary subtag.
    private func candidates(for script: Script, post: String) -> [String] {
        var found: [String] = []
        var seen: Set<Substring> = []
        if LanguageScripts.writes(LanguageScripts.primary(post), in: script) {
            found.append(post)
            seen.insert(LanguageScripts.primary(post))
        }
        for language in languages where reads(LanguageScripts.primary(language), script) {
            if seen.insert(LanguageScripts.primary(language)).inserted { found.append(language) }
        }
        return found
    }

    /// `detect`: each phrase of at least `minimumWords` words in one script, which two or more of
    /// the candidates are written in, goes to the language the identifier finds with confidence.
    private func detectLanguages(of pieces: inout [LetterPiece], in scalars: [Unicode.Scalar], post: String) {
        var start = 0
        while start < pieces.count {
            let script = pieces[start].script
            var end = start + 1
            while end < pieces.count, pieces[end].script == script,
                !scalars[pieces[end - 1].end..<pieces[end].start].contains(where: Self.endsPhrase)
            {
                end += 1
            }
            defer { start = end }
            guard end - start >= Self.minimumWords else { continue }
            let candidates = candidates(for: script, post: post)
            guard candidates.count >= 2 else { continue }
            let phrase = String(String.UnicodeScalarView(scalars[pieces[start].start..<pieces[end - 1].end]))
            guard let found = identifier.language(of: phrase, among: candidates) else { continue }
            for index in start..<end { pieces[index].language = found }
        }
    }

    /// The fewest words a phrase needs before `detect` asks about it: identifiers are unreliable
    /// on fewer.
    static let minimumWords = 3

    /// Whether `scalar` ends a phrase for `detect`: sentence punctuation, quotes, brackets, lines.
    static func endsPhrase(_ scalar: Unicode.Scalar) -> Bool {
        phraseBreaks.contains(scalar.value)
    }

    private static let phraseBreaks: Set<UInt32> = Set(
        (".!?;:\"()[]{}\n\r"
            + "\u{00AB}\u{00BB}\u{00A1}\u{00BF}\u{201C}\u{201D}\u{201E}\u{2026}\u{3002}\u{FF01}\u{FF1F}")
            .unicodeScalars.map(\.value)
    )

    /// The runs of the pieces: a new run where the language changes, at the boundary the type's
    /// documentation describes; the first run starts at 0 and the last ends at the end.
    private static func runs(of pieces: [LetterPiece], in scalars: [Unicode.Scalar], language: String) -> [LanguageRun]
    {
        var bounds: [(language: String, start: Int, end: Int)] = []
        for piece in pieces {
            guard let last = bounds.last else {
                bounds.append((piece.language, 0, piece.end))
                continue
            }
            if last.language == piece.language {
                bounds[bounds.count - 1].end = piece.end
                continue
            }
            let gap = last.end..<piece.start
            let boundary = gap.last(where: { scalars[$0].properties.isWhitespace }).map { $0 + 1 } ?? piece.start
            bounds[bounds.count - 1].end = boundary
            bounds.append((piece.language, boundary, piece.end))
        }
        bounds[bounds.count - 1].end = scalars.count
        return bounds.map { bound in
            LanguageRun(
                language: bound.language, range: bound.start..<bound.end,
                text: String(String.UnicodeScalarView(scalars[bound.start..<bound.end]))
            )
        }
    }
}

/// Letters of one script in a row (with the combining marks on them), and the language they are
/// read as.
struct LetterPiece {
    /// Where the piece starts and ends, in scalars of the text.
    var start: Int
    var end: Int
    var script: Script
    /// How many letters (not marks) it has.
    var letters: Int
    var language = ""

    /// The pieces of `scalars`, a single foreign letter inside a word joined to the word's script.
    static func pieces(of scalars: [Unicode.Scalar]) -> [LetterPiece] {
        var found: [LetterPiece] = []
        for (index, scalar) in scalars.enumerated() {
            guard let script = Script(of: scalar) else {
                // A combining mark on a letter belongs to that letter's piece.
                if isMark(scalar), let last = found.last, last.end == index { found[found.count - 1].end = index + 1 }
                continue
            }
            if let last = found.last, last.end == index, last.script == script {
                found[found.count - 1].end = index + 1
                found[found.count - 1].letters += 1
            } else {
                found.append(LetterPiece(start: index, end: index + 1, script: script, letters: 1))
            }
        }
        return joiningSingleLetters(found)
    }

    /// `pieces`, with each single letter of a word's minor script (a word: pieces that touch)
    /// taken into the script most of the word's letters are in, except between Han and kana,
    /// which Japanese writes side by side.
    private static func joiningSingleLetters(_ pieces: [LetterPiece]) -> [LetterPiece] {
        var joined: [LetterPiece] = []
        joined.reserveCapacity(pieces.count)
        // The letters of each of a word's scripts, in the order they first appear (a word has one
        // or two: a short list, kept between words, costs less than a dictionary per word).
        var letters: [(script: Script, count: Int)] = []
        var wordStart = 0
        while wordStart < pieces.count {
            var wordEnd = wordStart + 1
            while wordEnd < pieces.count, pieces[wordEnd].start == pieces[wordEnd - 1].end { wordEnd += 1 }
            let word = pieces[wordStart..<wordEnd]
            letters.removeAll(keepingCapacity: true)
            for piece in word {
                if let known = letters.firstIndex(where: { $0.script == piece.script }) {
                    letters[known].count += piece.letters
                } else {
                    letters.append((piece.script, piece.letters))
                }
            }
            // The first of the word's scripts with the most letters.
            let most = letters.lazy.map(\.count).max() ?? 0
            let main = letters.first { $0.count == most }?.script ?? word[wordStart].script
            for original in word {
                var piece = original
                if piece.letters == 1, !(piece.script.isCJK && main.isCJK) { piece.script = main }
                if let before = joined.last, before.end == piece.start, before.script == piece.script {
                    joined[joined.count - 1].end = piece.end
                    joined[joined.count - 1].letters += piece.letters
                } else {
                    joined.append(piece)
                }
            }
            wordStart = wordEnd
        }
        return joined
    }

    private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }
}

extension Script {
    /// Han, Hiragana or Katakana: the scripts Japanese writes together.
    var isCJK: Bool { self == .han || self == .hiragana || self == .katakana }
}
