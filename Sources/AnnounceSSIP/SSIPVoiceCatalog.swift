// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import AnnounceProtocol
import SSIPProtocol

/// The engine's voices as SSIP sees them: `LIST SYNTHESIS_VOICES`' entries, the names
/// `SET … SYNTHESIS_VOICE` may select, and a voice for a language when `VOICE_TYPE` asks for a
/// variant of it.
struct SSIPVoiceCatalog: Sendable {
    /// One entry per voice: its name, its best language (`en-GB` style), variant `none`.
    let entries: [SSIPVoice]
    private let names: Set<String>
    private let byLanguage: [String: String]

    init(_ voices: [VoiceDescription]) {
        entries = voices.map { SSIPVoice(name: $0.name, language: Self.displayTag($0.languages.first ?? $0.name)) }
        names = Set(voices.map { $0.name.lowercased() })
        var byLanguage: [String: String] = [:]
        for voice in voices {
            for language in voice.languages where byLanguage[language] == nil { byLanguage[language] = voice.name }
        }
        self.byLanguage = byLanguage
    }

    /// True when `name` is one of the voices (case-insensitive).
    func knows(_ name: String) -> Bool { names.contains(name.lowercased()) }

    /// A voice that speaks `language` (`en-US`, `en_US`, `en`), or its primary language.
    func voice(forLanguage language: String) -> String? {
        let tag = String(language.lowercased().map { $0 == "_" ? "-" : $0 })
        if let exact = byLanguage[tag] { return exact }
        return byLanguage[TraitNames.primarySubtag(tag)]
    }

    /// `en-gb` → `en-GB`: the region in capitals, as SSIP clients match locales.
    static func displayTag(_ tag: String) -> String {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        return parts.enumerated().map { index, part in
            index > 0 && part.count == 2 ? part.uppercased() : String(part)
        }.joined(separator: "-")
    }
}
