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
        let whole = [wholePart(of: utterance, language: postLanguage)]
        let settings = languageSwitching.withLock { $0 }
        guard settings.splitter.switching != .off, !utterance.spell, !utterance.text.isEmpty else { return whole }
        let runs = Self.runs(of: utterance, language: postLanguage, splitter: settings.splitter)
        // A text all in the post's language (most posts) is the post spoken whole.
        if runs.allSatisfy({ $0.language == postLanguage }) { return whole }
        var choices = RunChoices(
            backend: self, utterance: utterance, language: postLanguage, preferences: settings.voicePreferences)
        var parts: [UtterancePart] = []
        for run in runs {
            var part = utterance
            part.text = run.text
            part.earcon = utterance.earcon && parts.isEmpty
            let chosen = choices.voice(forLanguage: run.language)
            part.voice = chosen.voice
            // SSML is routed by its text (a `say-as`); plain text by its voice alone.
            part = utterance.ssml ? routed(part) : choices.routedByVoice(part)
            if !utterance.ssml, !chosen.fallback, let last = parts.last, !last.run.fallback,
                last.utterance.voice == part.voice
            {
                parts[parts.count - 1].utterance.text += part.text
                if let shown = run.shown {
                    parts[parts.count - 1].run.range = last.run.range.lowerBound..<shown.upperBound
                }
                continue
            }
            let engine = choices.engine(speaking: part.voice)
            parts.append(
                UtterancePart(
                    utterance: part, engine: engine.engine,
                    run: SpeechRun(
                        language: run.language, voice: engine.name, engine: engine.engine.name,
                        range: run.shown ?? run.range, fallback: chosen.fallback),
                    offset: run.offset))
        }
        // One run in the post's own voice is the post spoken whole.
        guard parts.count == 1, parts[0].utterance.voice == utterance.voice, !parts[0].run.fallback else {
            return parts.isEmpty ? whole : parts
        }
        return whole
    }

    /// `utterance` as one part: its whole text in its own voice and engine, shown without the
    /// spaces around it.
    private func wholePart(of utterance: Utterance, language: String) -> UtterancePart {
        let engine = engine(speaking: utterance.voice)
        let scalars = utterance.text.unicodeScalars
        return UtterancePart(
            utterance: utterance, engine: engine,
            run: SpeechRun(
                language: language, voice: voiceName(of: utterance.voice), engine: engine.name,
                range: Self.withoutSpaces(0..<scalars.count, scalars) ?? 0..<scalars.count),
            offset: 0)
    }

    /// The language runs of `utterance` (SSML or plain text), each with its place in the post's
    /// text as the monitor shows it.
    private static func runs(of utterance: Utterance, language: String, splitter: LanguageRunSplitter) -> [PostRun] {
        if utterance.ssml {
            return splitter.runs(ofSSML: utterance.text, language: language).map {
                let source = $0.ssml.unicodeScalars.dropFirst($0.sourceOffset).prefix($0.range.count)
                return PostRun(
                    language: $0.language, text: $0.ssml, range: $0.range, shown: withoutSpaces($0.range, source),
                    offset: $0.range.lowerBound - $0.sourceOffset)
            }
        }
        return splitter.runs(of: utterance.text, language: language).map {
            PostRun(
                language: $0.language, text: $0.text, range: $0.range,
                shown: withoutSpaces($0.range, $0.text.unicodeScalars), offset: $0.range.lowerBound)
        }
    }

    /// `range` of a post's text without the white space at its ends (`text`: the post's text in
    /// `range`), as the monitor shows a run; nil when it is all white space.
    fileprivate static func withoutSpaces(_ range: Range<Int>, _ text: some BidirectionalCollection<Unicode.Scalar>)
        -> Range<Int>?
    {
        let leading = text.prefix { $0.properties.isWhitespace }.count
        guard leading < range.count else { return nil }
        let trailing = text.reversed().prefix { $0.properties.isWhitespace }.count
        return (range.lowerBound + leading)..<(range.upperBound - trailing)
    }

    /// The name of the voice `identifier` (`zle/ru` is `ru`), its `+variant` suffix kept; the
    /// identifier itself when no voice has it.
    fileprivate func voiceName(of identifier: String) -> String {
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

/// A run of a post's text in one language, with its place in the post's text.
private struct PostRun {
    let language: String
    /// The run's text (its own well-formed SSML for an SSML post).
    let text: String
    let range: Range<Int>
    /// `range` without the spaces around it, as the monitor shows the run; nil for spaces alone.
    let shown: Range<Int>?
    /// Where the run's text starts in the post's text, in Unicode scalars.
    let offset: Int
}

/// What a post's runs are spoken with, worked out once per post for each language and voice: a
/// long text has thousands of runs in two or three languages, and indexing and searching the
/// voices is most of the cost. The voices are indexed only when a run needs another language's
/// voice.
private struct RunChoices {
    let backend: EngineBackend
    let utterance: Utterance
    /// The post's own language, spoken by the post's voice.
    let language: String
    let preferences: VoicePreferences
    private var runVoices: RunVoices?
    private var voiceForLanguage: [String: (voice: String, fallback: Bool)] = [:]
    private var routedVoice: [String: String] = [:]
    private var engineOfVoice: [String: (engine: any SpeechEngine, name: String)] = [:]

    init(backend: EngineBackend, utterance: Utterance, language: String, preferences: VoicePreferences) {
        self.backend = backend
        self.utterance = utterance
        self.language = language
        self.preferences = preferences
    }

    /// The voice for a run in `runLanguage`: the post's for its own language; else the voice
    /// `voice_for_language` or the voices give it; else the post's, as a stand-in (`fallback`).
    mutating func voice(forLanguage runLanguage: String) -> (voice: String, fallback: Bool) {
        if let known = voiceForLanguage[runLanguage] { return known }
        let chosen: (voice: String, fallback: Bool)
        if runLanguage == language {
            chosen = (utterance.voice, false)
        } else {
            let voices = runVoices ?? RunVoices(voices: backend.voices, preferences: preferences)
            runVoices = voices
            if let voice = voices.voice(forLanguage: runLanguage) {
                chosen = (voice.identifier, false)
            } else {
                chosen = (utterance.voice, true)
                backend.audioPath.logger.notice(
                    "no voice speaks \(runLanguage): that part of the post is spoken with the post's voice \(utterance.voice)",
                    metadata: ["seq": "\(utterance.seq)"]
                )
            }
        }
        voiceForLanguage[runLanguage] = chosen
        return chosen
    }

    /// `part` (plain text) with the voice its voice is routed to.
    mutating func routedByVoice(_ part: Utterance) -> Utterance {
        var part = part
        if let voice = routedVoice[part.voice] {
            part.voice = voice
        } else {
            let voice = backend.routed(part).voice
            routedVoice[part.voice] = voice
            part.voice = voice
        }
        return part
    }

    /// The engine that speaks `voice`, and the voice's name.
    mutating func engine(speaking voice: String) -> (engine: any SpeechEngine, name: String) {
        if let known = engineOfVoice[voice] { return known }
        let engine = (backend.engine(speaking: voice), backend.voiceName(of: voice))
        engineOfVoice[voice] = engine
        return engine
    }
}
