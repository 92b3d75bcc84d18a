// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol

/// What a Piper voice's `.onnx.json` says about the voice, checked: the fields the engine needs
/// to speak with the model (`phoneme_id_map`, `audio.sample_rate`, `espeak.voice`) and those
/// that describe it (`language.code`, `dataset`, `audio.quality`).
public struct PiperVoiceConfig: Sendable, Hashable {
    /// The most bytes a `.onnx.json` may have (Piper's are a few kilobytes; a multi-speaker
    /// voice's speaker list stays far below this).
    public static let maxBytes = 4 << 20

    /// `language.code` as written, e.g. `en_US`.
    public var languageCode: String
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
    /// How many phonemes `phoneme_id_map` maps.
    public var phonemeCount: Int

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
        guard let map = object["phoneme_id_map"]?.objectValue, !map.members.isEmpty else {
            throw PiperVoiceProblem("has no \"phoneme_id_map\" object; it is not a Piper voice's configuration")
        }
        guard let audio = object["audio"]?.objectValue, let rate = audio["sample_rate"]?.integerValue, (8000...192_000).contains(rate) else {
            throw PiperVoiceProblem("has no \"audio\": {\"sample_rate\": ...} between 8000 and 192000; it is not a Piper voice's configuration")
        }
        guard let espeak = object["espeak"]?.objectValue?["voice"]?.stringValue, !espeak.isEmpty else {
            throw PiperVoiceProblem("has no \"espeak\": {\"voice\": ...}; announced phonemizes Piper voices with espeak-ng and needs it")
        }
        guard let code = object["language"]?.objectValue?["code"]?.stringValue, Self.isLanguageCode(code) else {
            throw PiperVoiceProblem("has no \"language\": {\"code\": ...} such as \"en_US\"; it is not a Piper voice's configuration")
        }
        languageCode = code
        espeakVoice = espeak
        sampleRate = Int(rate)
        quality = audio["quality"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        dataset = object["dataset"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        speakerCount = object["num_speakers"]?.integerValue.map { Int(max(1, $0)) } ?? 1
        phonemeCount = map.members.count
    }

    /// The languages, lower-case BCP 47 tags, best first: `en_US` → `en-us`, then `en`.
    public var languages: [String] {
        let tag = String(languageCode.lowercased().map { $0 == "_" ? "-" : $0 })
        let primary = tag.split(separator: "-").first.map(String.init) ?? tag
        return primary == tag ? [tag] : [tag, primary]
    }

    /// Letters, digits, `_` and `-`, starting with a letter: `en_US`, `cmn`, `sr_RS`.
    static func isLanguageCode(_ code: String) -> Bool {
        guard let first = code.unicodeScalars.first, ("a"..."z").contains(first) || ("A"..."Z").contains(first) else { return false }
        return code.count <= 35 && code.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-"
        }
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
