// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceCore
public import LanguageRuns

extension EngineBackend {
    /// Cuts the posts spoken from now on into language runs (`language_switching`) for a reader
    /// of `languages` (`languages`; empty: the language of `defaultVoice`), each spoken by the voice
    /// `voicePreferences` (`voice_for_language`) names for its language, else espeak-ng's. Any thread.
    public func configureLanguageSwitching(
        _ switching: LanguageSwitching, languages: [String], defaultVoice: String, voicePreferences: VoicePreferences
    ) {
        let languages = languages.isEmpty ? [language(ofVoice: defaultVoice)] : languages
        let settings = LanguageSwitchingSettings(
            switching: switching, languages: languages, voicePreferences: voicePreferences)
        languageSwitching.withLock { $0 = settings }
    }

    /// `utterance` cut into its language runs (`LanguageRunSplitter`, as
    /// `configureLanguageSwitching` set it), each with the voice for its language (`RunVoices`)
    /// and that voice's engine (`engine(speaking:)`). A run in the post's language, or in one no
    /// voice speaks, keeps the post's voice; neighbouring plain-text runs with the same voice are
    /// one. A spelled utterance, and one with switching `off`, is one run.
    func parts(of utterance: Utterance) -> [UtterancePart] {
        let whole = [UtterancePart(utterance: utterance, engine: engine(speaking: utterance.voice), offset: 0)]
        let settings = languageSwitching.withLock { $0 }
        guard settings.splitter.switching != .off, !utterance.spell, !utterance.text.isEmpty else { return whole }
        let postLanguage = language(ofVoice: utterance.voice)
        let runs: [(language: String, text: String, offset: Int)] =
            utterance.ssml
            ? settings.splitter.runs(ofSSML: utterance.text, language: postLanguage).map {
                ($0.language, $0.ssml, $0.range.lowerBound - $0.sourceOffset)
            }
            : settings.splitter.runs(of: utterance.text, language: postLanguage).map {
                ($0.language, $0.text, $0.range.lowerBound)
            }
        guard runs.count > 1 else { return whole }
        let voices = RunVoices(voices: self.voices, preferences: settings.voicePreferences)
        var parts: [UtterancePart] = []
        for run in runs {
            var part = utterance
            part.text = run.text
            part.earcon = utterance.earcon && parts.isEmpty
            if run.language != postLanguage {
                if let voice = voices.voice(forLanguage: run.language) {
                    part.voice = voice.identifier
                } else {
                    audioPath.logger.notice(
                        "no voice speaks \(run.language): that part of the post is spoken with the post's voice \(utterance.voice)",
                        metadata: ["seq": "\(utterance.seq)"]
                    )
                }
            }
            part = routed(part)
            if !utterance.ssml, let last = parts.last, last.utterance.voice == part.voice {
                parts[parts.count - 1].utterance.text += part.text
                continue
            }
            parts.append(
                UtterancePart(
                    utterance: part, engine: engine(speaking: part.voice), language: run.language, offset: run.offset))
        }
        return parts.count > 1 ? parts : whole
    }

    /// The best language of the voice `identifier` or name (a `+variant` suffix aside), else the name.
    private func language(ofVoice identifier: String) -> String {
        let base = String(identifier.split(separator: "+", maxSplits: 1).first ?? Substring(identifier))
        return voices.first { $0.identifier == base || $0.name == base }?.languages.first ?? base
    }
}
