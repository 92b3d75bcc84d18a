// SPDX-License-Identifier: GPL-3.0-or-later
/// The backend's voices, looked up without scanning the list: every post resolves its voice, so
/// this is on the hot path. Built once, when the backend is attached.
///
/// A voice name is resolved the same way wherever it is given (the daemon's `--voice`, `set`, a
/// configuration reload, a post's `voice`), trying in turn:
/// 1. a voice's name, espeak-ng's file name without its folder (`en-us`, `en`, `fr`, `chr`);
/// 2. its full file name (`gmw/en`, `roa/fr`, `iro/chr`);
/// 3. a language (`en-gb`, `fr-fr`, `pt-br`, `chr-us-qaaa-x-west`; `_` counts as `-`): the voice
///    that lists it earliest in its own languages, the first voice by name among equals;
/// 4. espeak-ng's title for it (`klingon`, `english (great britain)`; `_` counts as a space, as
///    `espeak-ng --voices` prints it).
/// Case does not matter.
struct VoiceIndex {
    private let voices: [VoiceDescription]
    /// Lower-cased name → position of the voice with that name.
    private var byName: [String: Int] = [:]
    /// Lower-cased full file name → position.
    private var byIdentifier: [String: Int] = [:]
    /// Language tag → position of the voice that lists it earliest.
    private var byLanguage: [String: Int] = [:]
    /// Lower-cased title → position of the first voice with that title.
    private var byTitle: [String: Int] = [:]

    init(_ voices: [VoiceDescription]) {
        self.voices = voices
        var languageRank: [String: Int] = [:]
        for (position, voice) in voices.enumerated() {
            let name = voice.name.lowercased()
            if byName[name] == nil { byName[name] = position }
            let identifier = voice.identifier.lowercased()
            if byIdentifier[identifier] == nil { byIdentifier[identifier] = position }
            if let title = voice.title.map(Self.titleKey), byTitle[title] == nil { byTitle[title] = position }
            for (rank, language) in voice.languages.enumerated() where rank < languageRank[language, default: .max] {
                languageRank[language] = rank
                byLanguage[language] = position
            }
        }
    }

    /// A title as looked up: lower-cased, `_` as a space.
    static func titleKey(_ title: String) -> String {
        String(title.lowercased().map { $0 == "_" ? " " : $0 })
    }

    /// True when the backend listed no voices (then any name is accepted).
    var isEmpty: Bool { voices.isEmpty }

    /// Every voice, in the backend's order.
    var all: [VoiceDescription] { voices }

    /// The voice `name` selects (see the type's documentation), without a `+variant` suffix.
    func voice(named name: String) -> VoiceDescription? {
        let lower = name.lowercased()
        let position =
            byName[lower] ?? byIdentifier[lower] ?? byLanguage[lower.replacingUnderscores()]
            ?? byTitle[Self.titleKey(lower)]
        return position.map { voices[$0] }
    }

    /// The voice that lists the language `tag` (lower-case) earliest.
    func voice(speaking tag: String) -> VoiceDescription? {
        byLanguage[tag].map { voices[$0] }
    }

    /// The voice that lists the language `tag` (lower-case), else the one named `tag`.
    func voice(speakingOrNamed tag: String) -> VoiceDescription? {
        (byLanguage[tag] ?? byName[tag]).map { voices[$0] }
    }
}
