// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import AnnounceProtocol
import LanguageRuns

/// How the backend cuts each post into language runs and which voice speaks each: the settings
/// `language_switching`, `languages` and `voice_for_language`.
struct LanguageSwitchingSettings: Sendable {
    /// Cuts a post's text (plain or SSML) into runs.
    var splitter: LanguageRunSplitter
    /// The voices `voice_for_language` names.
    var voicePreferences: VoicePreferences

    /// Runs cut by `switching`, for a reader of `languages` (in order), spoken by the voices
    /// `voicePreferences` names, else espeak-ng's.
    init(switching: LanguageSwitching, languages: [String], voicePreferences: VoicePreferences) {
        splitter = LanguageRunSplitter(switching: switching, languages: languages)
        self.voicePreferences = voicePreferences
    }

    /// No switching: every post in its own voice.
    static let off = LanguageSwitchingSettings(switching: .off, languages: [], voicePreferences: VoicePreferences())
}

/// One language run of a post as the speech thread speaks it: its own utterance (the run's text,
/// plain or SSML, and its voice, with the post's sequence number, rate, pitch, volume and
/// punctuation), the engine that speaks that voice, and where its text is in the post's.
struct UtterancePart: Sendable {
    /// The run as an utterance.
    var utterance: Utterance
    /// The engine whose helper synthesizes it.
    var engine: any SpeechEngine
    /// The run as the monitor sees it when playback reaches it (`SpeechBackendEvent.run`): its
    /// language, voice name, engine, range in the post's text, and whether the post's voice
    /// stands in for a language no voice speaks.
    var run: SpeechRun
    /// What to add to a position in the run's text (a word's, a mark's) to get its position in the
    /// post's text, in Unicode scalars.
    var offset: Int
}
