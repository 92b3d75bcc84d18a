// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol

/// The voice each language run of a post speaks with (the setting `language_switching`): the
/// voice `voice_for_language` names for the run's language when it is installed, else the voice
/// for the language of an engine that is the language fallback (its capability; espeak-ng's). Chinese is espeak-ng's `cmn-latn-pinyin`, the Mandarin voice that reads
/// Han characters (its sibling `cmn` reads Latin letters as English, which a run in Han never has).
public struct RunVoices: Sendable {
    private let all: VoiceIndex
    /// The voices of the engines that are the language fallback (espeak-ng's).
    private let espeak: VoiceIndex
    private let preferences: VoicePreferences

    /// Chooses among `voices` (every installed and listed voice), with the `voice_for_language`
    /// `preferences`.
    public init(voices: [VoiceDescription], preferences: VoicePreferences) {
        all = VoiceIndex(voices)
        espeak = VoiceIndex(voices.filter(\.capabilities.languageFallback))
        self.preferences = preferences
    }

    /// The voice for the language `tag` (`ru`, `zh`, `pt-BR`); nil when no voice speaks it.
    public func voice(forLanguage tag: String) -> VoiceDescription? {
        if let preferred = all.preferredVoice(forLanguage: tag, preferences) { return all.voice(named: preferred) }
        let primary = TraitNames.primarySubtag(tag.lowercased().replacingUnderscores())
        if primary == "zh" || primary == "cmn", let mandarin = espeak.voice(named: "cmn-latn-pinyin") {
            return mandarin
        }
        return espeak.voice(forLanguage: tag).flatMap { espeak.voice(named: $0) }
    }
}
