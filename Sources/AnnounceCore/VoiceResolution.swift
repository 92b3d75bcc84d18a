// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol

/// The voice a post speaks with, resolved.
struct ResolvedVoice {
    /// The voice's name, as `started` reports it (`en-us`, `en+f3`).
    var name: String
    /// What the synthesizer selects it with (`gmw/en-US`, `gmw/en+f3`).
    var synthesizerName: String
    /// The language the text is in, for trait names.
    var language: String?
    /// Set when the post asked for a language no voice speaks.
    var warning: String?
}

extension VoiceIndex {
    /// The voice a post speaks with: its `voice`, else one for its `lang` (the one `preferences`
    /// names for it, when that voice is installed, else the voice that lists the language
    /// earliest), else `defaultVoice`.
    func resolve(
        _ options: SpeechOptions, defaultVoice: String, preferences: VoicePreferences = VoicePreferences()
    ) throws(RequestError) -> ResolvedVoice {
        if let voice = options.voice {
            guard let resolved = resolve(voiceName: voice) else {
                throw RequestError(.invalid, Self.unknownVoiceMessage(voice, field: "voice"))
            }
            return ResolvedVoice(
                name: resolved.name, synthesizerName: resolved.synthesizerName,
                language: options.lang ?? resolved.language
            )
        }
        let fallback =
            resolve(voiceName: defaultVoice)
            ?? ResolvedVoice(name: defaultVoice, synthesizerName: defaultVoice, language: defaultVoice)
        if let lang = options.lang {
            if let match = preferredVoice(forLanguage: lang, preferences) ?? voice(forLanguage: lang),
                let resolved = resolve(voiceName: match)
            {
                return ResolvedVoice(name: resolved.name, synthesizerName: resolved.synthesizerName, language: lang)
            }
            var chosen = fallback
            chosen.language = lang
            if !isEmpty {
                chosen.warning =
                    "no voice speaks the language \"\(lang)\"; spoken with the default voice \(fallback.name)"
            }
            return chosen
        }
        return fallback
    }

    /// The voice `name` selects (with its `+variant` suffix, if any), or nil when there is none.
    /// Any name is taken as it is when the backend lists no voices.
    func resolve(voiceName name: String) -> ResolvedVoice? {
        let parts = name.split(separator: "+", maxSplits: 1, omittingEmptySubsequences: false)
        let base = parts.first.map(String.init) ?? name
        let asked = parts.count > 1 ? "+" + parts[1] : ""
        guard !isEmpty else { return ResolvedVoice(name: name, synthesizerName: name, language: base) }
        guard !base.isEmpty, let voice = voice(named: base) else { return nil }
        // A variant (`+f3`) is for an engine that takes them (espeak-ng); another engine's voice
        // is spoken as it is.
        let variant = voice.capabilities.voiceVariants ? asked : ""
        return ResolvedVoice(
            name: voice.name + variant, synthesizerName: voice.identifier + variant,
            language: voice.languages.first ?? voice.name
        )
    }

    /// The best language of the voice `name` selects, else `name` itself.
    func language(ofVoice name: String) -> String {
        resolve(voiceName: name)?.language ?? name
    }

    /// The installed voice `preferences` names for the BCP 47 tag `tag` or, failing that, for its
    /// primary subtag (`en-gb`, then `en`); nil when it names none, or one not installed.
    func preferredVoice(forLanguage tag: String, _ preferences: VoicePreferences) -> String? {
        guard !preferences.isEmpty else { return nil }
        let lower = tag.lowercased().replacingUnderscores()
        for candidate in [lower, TraitNames.primarySubtag(lower)] {
            if let name = preferences.voice(forExactLanguage: candidate), let voice = voice(named: name) {
                return voice.name
            }
        }
        return nil
    }

    /// A voice for a BCP 47 tag: one that lists it, else one for its primary subtag.
    func voice(forLanguage tag: String) -> String? {
        let lower = tag.lowercased().replacingUnderscores()
        if let exact = voice(speaking: lower) { return exact.name }
        let primary = TraitNames.primarySubtag(lower)
        let candidates = primary == "zh" ? ["cmn", "zh"] : [primary]
        for candidate in candidates {
            if let match = voice(speakingOrNamed: candidate) { return match.name }
        }
        return nil
    }

    /// Every voice, or those that speak `language` (or its primary subtag) when given.
    func voices(speaking language: String?) -> [VoiceDescription] {
        guard let language else { return all }
        let tag = language.lowercased().replacingUnderscores()
        let primary = TraitNames.primarySubtag(tag)
        return all.filter { voice in
            voice.languages.contains { $0 == tag || $0 == primary || TraitNames.primarySubtag($0) == primary }
        }
    }

    /// The voice a message bound to `engine` speaks with: the options' voice when it is that
    /// engine's; else, for the options' language (or the default voice's), the voice
    /// `preferences` names when it is that engine's, else the first of the engine's voices that
    /// speaks the language or its primary subtag, else the engine's first voice. The options'
    /// voice as it was when the engine has no voices.
    func voiceName(of engine: String, for options: SpeechOptions, defaultVoice: String, preferences: VoicePreferences)
        -> String?
    {
        if let asked = options.voice, let voice = voice(named: String(asked.split(separator: "+").first ?? ""))?.engine,
            voice == engine
        {
            return asked
        }
        let ofEngine = all.filter { $0.engine == engine }
        guard let first = ofEngine.first else { return options.voice }
        let language = (options.lang ?? self.language(ofVoice: defaultVoice)).lowercased().replacingUnderscores()
        if let preferred = preferredVoice(forLanguage: language, preferences), voice(named: preferred)?.engine == engine
        {
            return preferred
        }
        let primary = TraitNames.primarySubtag(language)
        let speaking =
            ofEngine.first { $0.languages.contains(language) }
            ?? ofEngine.first {
                $0.languages.contains(primary) || $0.languages.contains { TraitNames.primarySubtag($0) == primary }
            }
        return (speaking ?? first).name
    }

    /// Why `voice` was refused, and what to use instead.
    static func unknownVoiceMessage(_ voice: String, field: String) -> String {
        "`\(field)` names the unknown voice \"\(voice)\"; give a language or file name from `espeak-ng --voices` "
            + "(e.g. \"en-us\", \"en-gb\", \"gmw/en\", \"fr-fr\", \"de\", \"cmn\") or the name of an installed Piper voice "
            + "(`announcectl voices install` installs one); `announcectl voices` lists them all"
    }
}

extension String {
    /// The string with every `_` as `-` (`en_GB` as `en-GB`).
    func replacingUnderscores() -> String { String(map { $0 == "_" ? "-" : $0 }) }
}
