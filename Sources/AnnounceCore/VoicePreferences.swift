// SPDX-License-Identifier: GPL-3.0-or-later

/// Which voice speaks a language when a post names only its `lang` (the `voice_for_language`
/// setting), e.g. `en` → `en_us-joe-medium`, a Piper voice, while other languages keep espeak-ng.
///
/// A post with `lang: "en-GB"` takes the voice given for `en-gb`, else the one for `en`; a voice
/// named here that is not installed is passed over, and the language's usual voice speaks.
public struct VoicePreferences: Sendable, Hashable {
    /// Lower-cased language tag (`-`, not `_`) → the voice name as given.
    private var byLanguage: [String: String] = [:]

    /// No preferences: every language speaks with the voice that lists it earliest.
    public init() {}

    /// Preferences from `language → voice` pairs; a language given twice keeps its last voice.
    public init(_ pairs: some Sequence<(language: String, voice: String)>) {
        for (language, voice) in pairs { byLanguage[Self.key(language)] = voice }
    }

    /// True when no language has a preferred voice.
    public var isEmpty: Bool { byLanguage.isEmpty }

    /// Every preference, by language tag, sorted by tag.
    public var pairs: [(language: String, voice: String)] {
        byLanguage.sorted { $0.key < $1.key }.map { (language: $0.key, voice: $0.value) }
    }

    /// The voice named for exactly the tag `language` (case and `_` do not matter), if any.
    public func voice(forExactLanguage language: String) -> String? {
        byLanguage[Self.key(language)]
    }

    /// A tag as looked up: lower-cased, `_` as `-`.
    static func key(_ language: String) -> String {
        String(language.lowercased().map { $0 == "_" ? "-" : $0 })
    }

    /// Equal when they prefer the same voices.
    public static func == (lhs: VoicePreferences, rhs: VoicePreferences) -> Bool { lhs.byLanguage == rhs.byLanguage }

    /// Hashes the preferences.
    public func hash(into hasher: inout Hasher) { hasher.combine(byLanguage) }
}
