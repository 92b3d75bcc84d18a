// SPDX-License-Identifier: GPL-3.0-or-later

/// How a post's text is cut into runs of one language each (the setting `language_switching`).
public enum LanguageSwitching: String, Sendable, CaseIterable {
    /// One run, in the post's language.
    case off
    /// A run in a script the post's language is not written in goes to the language that script
    /// implies (Cyrillic to Russian, Greek to Greek, ...), or to the first of the user's
    /// languages written in it.
    case script
    /// As `script`, and phrases of several words in a script several of the user's languages
    /// share (Latin, Cyrillic, ...) go to the language an identifier finds among them.
    case detect
}

/// A stretch of a post's text in one language.
public struct LanguageRun: Equatable, Sendable {
    /// The run's language: the post's language as the post gave it, or one of the user's
    /// `languages` as the user gave it, or the language the script implies (`ru`, `el`, `he`,
    /// `ar`, `ko`, `ja`, `zh`, `hi`, `th`).
    public var language: String
    /// Where the run is in the post's text, in Unicode scalars (as `spoken_chars` and SSML marks'
    /// offsets count).
    public var range: Range<Int>
    /// The run's text: the post's text in `range`.
    public var text: String

    /// A run of `text`, in `language`, at `range` of the post's text.
    public init(language: String, range: Range<Int>, text: String) {
        self.language = language
        self.range = range
        self.text = text
    }
}
