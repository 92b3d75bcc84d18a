// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol

/// What a Piper voice's `.onnx.json` says about the voice, checked: the fields the engine needs
/// to speak with the model (`phoneme_id_map`, `audio.sample_rate`, `espeak.voice`, `inference`)
/// and those that describe it (`language.code`, `dataset`, `audio.quality`).
///
/// The one reader of the format: the daemon and `announcectl voices install` check a pair with
/// it, and `announced-piper` loads a voice with it, so a file one accepts the other accepts too.
public struct PiperVoiceConfig: Sendable, Hashable {
    /// The most bytes a `.onnx.json` may have (Piper's are a few kilobytes; a multi-speaker
    /// voice's speaker list stays far below this).
    public static let maxBytes = 4 << 20

    /// `language.code` as written, e.g. `en_US`.
    public var languageCode: String
    /// `language.name_english`, e.g. `English`, when given.
    public var languageName: String?
    /// The espeak-ng voice that phonemizes its text (`espeak.voice`), e.g. `en-us`.
    public var espeakVoice: String
    /// `audio.sample_rate`, in hertz.
    public var sampleRate: Int
    /// `audio.quality` (`x_low`, `low`, `medium`, `high`), when given.
    public var quality: String?
    /// `dataset`, the recordings it was trained on (often the speaker's name), when given.
    public var dataset: String?
    /// `num_speakers`, 1 when not given.
    public var speakerCount: Int
    /// `phoneme_id_map`: each phoneme (as written, one Unicode scalar for espeak phonemes) and
    /// the model's id for it (the first of its list), in the file's order.
    public var phonemeIDs: [PiperPhonemeID]
    /// VITS's scales from `inference`, Piper's defaults where it gives none.
    public var inference: PiperInferenceSettings

    /// How many phonemes `phoneme_id_map` maps.
    public var phonemeCount: Int { phonemeIDs.count }

    /// Reads and checks the `.onnx.json` at `path` (at most ``maxBytes``).
    ///
    /// - Throws: ``PiperVoiceProblem`` saying why it cannot be read, or naming the first missing
    ///   or malformed field; the sentence starts after the file's name.
    public init(contentsOf path: String) throws(PiperVoiceProblem) {
        try self.init(bytes: VoiceFileIO.read(path, limit: Self.maxBytes))
    }

    /// Reads and checks a `.onnx.json`'s bytes.
    ///
    /// - Throws: ``PiperVoiceProblem`` naming the first missing or malformed field.
    public init(bytes: some Collection<UInt8>) throws(PiperVoiceProblem) {
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw PiperVoiceProblem("is not valid JSON (\(error.description)); it may be cut short: download it again")
        }
        guard let object = root.objectValue else {
            throw PiperVoiceProblem("must hold one JSON object (a Piper voice's configuration), not a \(root.typeName)")
        }
        if let type = object["phoneme_type"]?.stringValue, type != "espeak" {
            throw PiperVoiceProblem(
                "is a voice for \"phoneme_type\": \"\(type)\"; announced phonemizes with espeak-ng and speaks only voices for \"espeak\" phonemes (nearly all Piper voices): choose another voice"
            )
        }
        guard let map = object["phoneme_id_map"]?.objectValue, !map.members.isEmpty else {
            throw PiperVoiceProblem("has no \"phoneme_id_map\" object; it is not a Piper voice's configuration")
        }
        var phonemeIDs: [PiperPhonemeID] = []
        phonemeIDs.reserveCapacity(map.members.count)
        for (symbol, value) in map.members {
            guard let id = value.arrayValue?.first?.integerValue, !symbol.isEmpty, !symbol.contains("\n") else {
                throw PiperVoiceProblem(
                    "has a \"phoneme_id_map\" entry \"\(symbol)\" that is not a phoneme with a list of ids; it is not a Piper voice's configuration"
                )
            }
            phonemeIDs.append(PiperPhonemeID(symbol: symbol, id: id))
        }
        guard let audio = object["audio"]?.objectValue, let rate = audio["sample_rate"]?.integerValue,
            (8000...192_000).contains(rate)
        else {
            throw PiperVoiceProblem(
                "has no \"audio\": {\"sample_rate\": ...} between 8000 and 192000; it is not a Piper voice's configuration"
            )
        }
        guard let espeak = object["espeak"]?.objectValue?["voice"]?.stringValue, !espeak.isEmpty else {
            throw PiperVoiceProblem(
                "has no \"espeak\": {\"voice\": ...}; announced phonemizes Piper voices with espeak-ng and needs it")
        }
        guard let code = object["language"]?.objectValue?["code"]?.stringValue, Self.isLanguageCode(code) else {
            throw PiperVoiceProblem(
                "has no \"language\": {\"code\": ...} such as \"en_US\"; it is not a Piper voice's configuration")
        }
        let settings = object["inference"]?.objectValue
        languageCode = code
        languageName = object["language"]?.objectValue?["name_english"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        espeakVoice = espeak
        sampleRate = Int(rate)
        quality = audio["quality"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        dataset = object["dataset"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        speakerCount = object["num_speakers"]?.integerValue.map { Int(max(1, $0)) } ?? 1
        self.phonemeIDs = phonemeIDs
        inference = PiperInferenceSettings(
            noiseScale: settings?["noise_scale"]?.doubleValue.map(Float.init)
                ?? PiperInferenceSettings.piperDefaults.noiseScale,
            lengthScale: settings?["length_scale"]?.doubleValue.map(Float.init)
                ?? PiperInferenceSettings.piperDefaults.lengthScale,
            noiseWidth: settings?["noise_w"]?.doubleValue.map(Float.init)
                ?? PiperInferenceSettings.piperDefaults.noiseWidth
        )
    }

    /// The languages, lower-case BCP 47 tags, best first: `en_US` → `en-us`, then `en`.
    public var languages: [String] {
        let tag = String(languageCode.lowercased().map { $0 == "_" ? "-" : $0 })
        let primary = tag.split(separator: "-").first.map(String.init) ?? tag
        return primary == tag ? [tag] : [tag, primary]
    }

    /// Letters, digits, `_` and `-`, starting with a letter: `en_US`, `cmn`, `sr_RS`.
    static func isLanguageCode(_ code: String) -> Bool {
        guard let first = code.unicodeScalars.first, ("a"..."z").contains(first) || ("A"..."Z").contains(first) else {
            return false
        }
        return code.count <= 35
            && code.unicodeScalars.allSatisfy { scalar in
                ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                    || scalar == "_" || scalar == "-"
            }
    }
}

/// One entry of a voice's `phoneme_id_map`: a phoneme and the model's id for it.
public struct PiperPhonemeID: Sendable, Hashable {
    /// The phoneme as the map writes it, e.g. `ə` (the space phoneme is `" "`).
    public var symbol: String
    /// Its id in the model's input.
    public var id: Int64

    /// Creates an entry.
    public init(symbol: String, id: Int64) {
        self.symbol = symbol
        self.id = id
    }
}

/// VITS's scales, from a voice's `inference` section: how varied the voice sounds and how fast
/// it speaks at rate 1.
public struct PiperInferenceSettings: Sendable, Hashable {
    /// `noise_scale`: the variation of the voice's sound.
    public var noiseScale: Float
    /// `length_scale`: the length of each phoneme (greater is slower).
    public var lengthScale: Float
    /// `noise_w`: the variation of the phonemes' lengths.
    public var noiseWidth: Float

    /// What Piper uses for a field the section leaves out (its `piper_train` defaults).
    public static let piperDefaults = PiperInferenceSettings(noiseScale: 0.667, lengthScale: 1, noiseWidth: 0.8)

    /// Creates settings.
    public init(noiseScale: Float, lengthScale: Float, noiseWidth: Float) {
        self.noiseScale = noiseScale
        self.lengthScale = lengthScale
        self.noiseWidth = noiseWidth
    }
}

/// Why a Piper voice file was not taken: the rest of a sentence that starts with the file's
/// name, and says what to do.
public struct PiperVoiceProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// E.g. `has no "phoneme_id_map" object; ...`.
    public var problem: String

    /// Creates a problem.
    public init(_ problem: String) {
        self.problem = problem
    }

    /// The problem.
    public var description: String { problem }
}
