// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceCore
import AnnounceProtocol
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
    /// and that voice's engine (`engine(speaking:)`). A run in the post's language keeps the post's
    /// voice, and so does one in a language no voice speaks (marked `fallback` for the monitor);
    /// neighbouring plain-text runs with the same voice are one, unless one of them is such a
    /// stand-in. A spelled utterance, and one with switching `off`, is one run; so is a text all in
    /// one language, spoken by that language's voice.
    func parts(of utterance: Utterance) -> [UtterancePart] {
        let postLanguage = language(ofVoice: utterance.voice)
        let wholeEngine = engine(speaking: utterance.voice)
        let whole = [
            UtterancePart(
                utterance: utterance, engine: wholeEngine,
                run: SpeechRun(
                    language: postLanguage, voice: voiceName(of: utterance.voice), engine: wholeEngine.name,
                    range: Self.withoutSpaces(0..<utterance.text.unicodeScalars.count, utterance.text.unicodeScalars)
                        ?? 0..<utterance.text.unicodeScalars.count),
                offset: 0)
        ]
        let settings = languageSwitching.withLock { $0 }
        guard settings.splitter.switching != .off, !utterance.spell, !utterance.text.isEmpty else { return whole }
        // Each run with its place in the post's text as the monitor shows it (`shown`: without the
        // spaces around it; nil for a run of spaces alone).
        let runs: [(language: String, text: String, range: Range<Int>, shown: Range<Int>?, offset: Int)] =
            utterance.ssml
            ? settings.splitter.runs(ofSSML: utterance.text, language: postLanguage).map {
                let source = $0.ssml.unicodeScalars.dropFirst($0.sourceOffset).prefix($0.range.count)
                return (
                    $0.language, $0.ssml, $0.range, Self.withoutSpaces($0.range, source),
                    $0.range.lowerBound - $0.sourceOffset
                )
            }
            : settings.splitter.runs(of: utterance.text, language: postLanguage).map {
                (
                    $0.language, $0.text, $0.range, Self.withoutSpaces($0.range, $0.text.unicodeScalars),
                    $0.range.lowerBound
                )
            }
        // A text all in the post's language (most posts) is the post spoken whole.
        if runs.allSatisfy({ $0.language == postLanguage }) { return whole }
        // What a run's language gives, worked out once per post for each language and voice: a
        // long text has thousands of runs in two or three languages, and indexing and searching
        // the voices is most of the cost. The voices are indexed only when a run needs another
        // language's voice.
        var runVoices: RunVoices?
        var voiceForLanguage: [String: (voice: String, fallback: Bool)] = [:]
        var routedVoice: [String: String] = [:]
        var engineOfVoice: [String: (engine: any SpeechEngine, name: String)] = [:]
        var parts: [UtterancePart] = []
        for run in runs {
            var part = utterance
            part.text = run.text
            part.earcon = utterance.earcon && parts.isEmpty
            let chosen: (voice: String, fallback: Bool)
            if let known = voiceForLanguage[run.language] {
                chosen = known
            } else if run.language == postLanguage {
                chosen = (utterance.voice, false)
                voiceForLanguage[run.language] = chosen
            } else {
                let voices = runVoices ?? RunVoices(voices: self.voices, preferences: settings.voicePreferences)
                runVoices = voices
                if let voice = voices.voice(forLanguage: run.language) {
                    chosen = (voice.identifier, false)
                } else {
                    chosen = (utterance.voice, true)
                    audioPath.logger.notice(
                        "no voice speaks \(run.language): that part of the post is spoken with the post's voice \(utterance.voice)",
                        metadata: ["seq": "\(utterance.seq)"]
                    )
                }
                voiceForLanguage[run.language] = chosen
            }
            let fallback = chosen.fallback
            part.voice = chosen.voice
            // SSML is routed by its text (a `say-as`); plain text by its voice alone.
            if utterance.ssml {
                part = routed(part)
            } else if let voice = routedVoice[part.voice] {
                part.voice = voice
            } else {
                let voice = routed(part).voice
                routedVoice[part.voice] = voice
                part.voice = voice
            }
            if !utterance.ssml, !fallback, let last = parts.last, !last.run.fallback,
                last.utterance.voice == part.voice
            {
                parts[parts.count - 1].utterance.text += part.text
                if let shown = run.shown {
                    parts[parts.count - 1].run.range = last.run.range.lowerBound..<shown.upperBound
                }
                continue
            }
            let engine = engineOfVoice[part.voice] ?? (engine(speaking: part.voice), voiceName(of: part.voice))
            engineOfVoice[part.voice] = engine
            parts.append(
                UtterancePart(
                    utterance: part, engine: engine.engine,
                    run: SpeechRun(
                        language: run.language, voice: engine.name, engine: engine.engine.name,
                        range: run.shown ?? run.range, fallback: fallback),
                    offset: run.offset))
        }
        // One run in the post's own voice is the post spoken whole.
        guard parts.count == 1, parts[0].utterance.voice == utterance.voice, !parts[0].run.fallback else {
            return parts.isEmpty ? whole : parts
        }
        return whole
    }

    /// `range` of a post's text without the white space at its ends (`text`: the post's text in
    /// `range`), as the monitor shows a run; nil when it is all white space.
    private static func withoutSpaces(_ range: Range<Int>, _ text: some BidirectionalCollection<Unicode.Scalar>)
        -> Range<Int>?
    {
        let leading = text.prefix { $0.properties.isWhitespace }.count
        guard leading < range.count else { return nil }
        let trailing = text.reversed().prefix { $0.properties.isWhitespace }.count
        return (range.lowerBound + leading)..<(range.upperBound - trailing)
    }

    /// The name of the voice `identifier` (`zle/ru` is `ru`), its `+variant` suffix kept; the
    /// identifier itself when no voice has it.
    private func voiceName(of identifier: String) -> String {
        let pieces = identifier.split(separator: "+", maxSplits: 1)
        let base = String(pieces.first ?? Substring(identifier))
        guard let voice = voices.first(where: { $0.identifier == base || $0.name == base }) else { return identifier }
        return pieces.count > 1 ? voice.name + "+" + pieces[1] : voice.name
    }

    /// The best language of the voice `identifier` or name (a `+variant` suffix aside), else the name.
    private func language(ofVoice identifier: String) -> String {
        let base = String(identifier.split(separator: "+", maxSplits: 1).first ?? Substring(identifier))
        return voices.first { $0.identifier == base || $0.name == base }?.languages.first ?? base
    }
}
