/// The backend's voices, looked up by name and by language without scanning the list: every post
/// resolves its voice, so this is on the hot path. Built once, when the backend is attached.
struct VoiceIndex {
    private let voices: [VoiceDescription]
    /// Lower-cased name → position of the first voice with that name.
    private var byName: [String: Int] = [:]
    /// Language tag → position of the first voice that lists it.
    private var byLanguage: [String: Int] = [:]

    init(_ voices: [VoiceDescription]) {
        self.voices = voices
        for (position, voice) in voices.enumerated() {
            let name = voice.name.lowercased()
            if byName[name] == nil { byName[name] = position }
            for language in voice.languages where byLanguage[language] == nil {
                byLanguage[language] = position
            }
        }
    }

    /// True when the backend listed no voices (then any name is accepted).
    var isEmpty: Bool { voices.isEmpty }

    /// The first voice named `name` (lower-case), else the first that speaks `name` as a language.
    func voice(named name: String) -> VoiceDescription? {
        guard let position = byName[name] ?? byLanguage[name] else { return nil }
        return voices[position]
    }

    /// The first voice that lists the language `tag` (lower-case).
    func voice(speaking tag: String) -> VoiceDescription? {
        byLanguage[tag].map { voices[$0] }
    }

    /// The first voice that lists the language `tag` or is named `tag` (lower-case).
    func voice(speakingOrNamed tag: String) -> VoiceDescription? {
        switch (byLanguage[tag], byName[tag]) {
        case (let language?, let name?): voices[min(language, name)]
        case (let language?, nil): voices[language]
        case (nil, let name?): voices[name]
        case (nil, nil): nil
        }
    }
}
