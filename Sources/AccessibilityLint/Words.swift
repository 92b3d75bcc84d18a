// SPDX-License-Identifier: GPL-3.0-or-later
/// Word-level text helpers for the rules. Written by hand: the checks need only letter runs and
/// case tests, which the standard library's `Character` properties give without Foundation.
enum Words {
    /// The lower-cased words of `text`: maximal runs of letters and digits ("Wi-Fi" is `wi`, `fi`).
    static func of(_ text: String) -> [String] {
        split(text).map { $0.lowercased() }
    }

    /// The words of `text` as written: maximal runs of letters and digits.
    static func split(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        for character in text {
            if character.isLetter || character.isNumber {
                current.append(character)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// True when `phrase` (words) occurs in `words` as consecutive whole words.
    static func contains(_ words: [String], phrase: [String]) -> Bool {
        guard !phrase.isEmpty, phrase.count <= words.count else { return false }
        for start in 0...(words.count - phrase.count) where words[start..<(start + phrase.count)].elementsEqual(phrase)
        {
            return true
        }
        return false
    }

    /// The first of `phrases` (each given as text) that occurs in `words`, in the order given.
    static func firstPhrase(in words: [String], among phrases: [String]) -> String? {
        phrases.first { contains(words, phrase: of($0)) }
    }
}

extension String {
    /// The text without leading and trailing white space.
    var trimmed: Substring {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map { index(after: $0) } ?? start
        return self[start..<max(start, end)]
    }

    /// True when the string is empty or only white space.
    var isBlankText: Bool { trimmed.isEmpty }

    /// The text for a message: quoted, and cut to 60 characters with "…" when longer.
    var quoted: String {
        let text = trimmed
        let shown = text.count > 60 ? text.prefix(59) + "…" : text
        return "\"\(shown)\""
    }
}
