// SPDX-License-Identifier: Apache-2.0
/// One entry of the `voices` answer (an addition to protocol 1): a voice the daemon can speak with.
public struct VoiceInfo: Sendable, Hashable {
    /// The name to select it with (espeak-ng's file name without its folder, e.g. `en-us`; a Piper
    /// voice's file name without `.onnx`, lower-cased, e.g. `en_us-joe-medium`).
    public var name: String
    /// Its best language, e.g. `en-gb`.
    public var language: String
    /// All its languages, best first.
    public var languages: [String]
    /// espeak-ng's file name, which selects it too, e.g. `gmw/en`; a Piper voice's model path.
    public var file: String
    /// `male` or `female`, when known.
    public var gender: String?
    /// espeak-ng's title for it, e.g. `English (Great Britain)`; a Piper voice's dataset and
    /// quality, e.g. `joe (medium)`.
    public var title: String?
    /// The engine that speaks it: `espeak-ng` or `piper` (`espeak-ng` from a daemon that does not say).
    public var engine: String
    /// A Piper voice's quality (`x_low`, `low`, `medium`, `high`), when known.
    public var quality: String?

    /// Reads one entry of a `voices` answer.
    public init(_ object: JSONObject) throws(FieldError) {
        name = try object.requiredString("name")
        language = try object.optionalString("language") ?? name
        languages = object["languages"]?.arrayValue?.compactMap(\.stringValue) ?? [language]
        file = try object.optionalString("file") ?? name
        gender = try object.optionalString("gender")
        title = try object.optionalString("title")
        engine = try object.optionalString("engine") ?? "espeak-ng"
        quality = try object.optionalString("quality")
    }
}
