// SPDX-License-Identifier: GPL-3.0-or-later

/// Which scripts a language is written in, and which language a script implies.
///
/// Languages are compared by their primary subtag, lowercased (`en-US`, `en_GB` and `EN` are all
/// `en`). A language not listed here is taken to be written in Latin letters.
enum LanguageScripts {
    /// The primary subtag of a language tag, lowercased: `pt` for `pt-BR` and `pt_BR`.
    static func primary(_ tag: String) -> Substring {
        let end = tag.firstIndex(where: { $0 == "-" || $0 == "_" }) ?? tag.endIndex
        let primary = tag[..<end]
        return primary.contains(where: \.isUppercase) ? Substring(primary.lowercased()) : primary
    }

    /// The languages a foreign run of `script` may be read as, the first the one chosen when none
    /// of the user's languages is among them. Latin has none: which language a Latin run is read
    /// as depends on the user's languages only.
    static func readers(of script: Script) -> [Substring] {
        switch script {
        case .latin: []
        case .cyrillic: ["ru", "uk", "be", "bg", "sr", "mk", "kk", "ky", "mn", "tg", "tt", "ba", "cv"]
        case .greek: ["el", "grc"]
        case .hebrew: ["he", "yi"]
        case .arabic: ["ar", "fa", "ur", "ps", "ug", "sd", "ckb"]
        case .hangul: ["ko"]
        case .hiragana, .katakana: ["ja"]
        case .han: ["zh", "cmn", "yue", "hak", "ja"]
        case .devanagari: ["hi", "mr", "ne", "sa", "kok", "mai", "bho"]
        case .thai: ["th"]
        }
    }

    /// Whether `language` (a primary subtag) is written in `script`.
    static func writes(_ language: Substring, in script: Script) -> Bool {
        switch script {
        case .latin:
            // Every language but those written only in another script; Serbian in both.
            language == "sr" || !nonLatin.contains(language)
        case .han:
            language == "ko" || readers(of: .han).contains(language)
        default:
            readers(of: script).contains(language)
        }
    }

    /// The languages written in another script only.
    private static let nonLatin: Set<Substring> = {
        var languages: Set<Substring> = []
        for script in Script.allCases where script != .latin {
            languages.formUnion(readers(of: script))
        }
        return languages
    }()
}
