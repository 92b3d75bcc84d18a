// SPDX-License-Identifier: Apache-2.0
/// One entry of the `voices` answer (an addition to protocol 1): a voice the daemon can speak with.
public struct VoiceInfo: Sendable, Hashable {
    /// The name to select it with (espeak-ng's file name without its folder), e.g. `en-us`.
    public var name: String
    /// Its best language, e.g. `en-gb`.
    public var language: String
    /// All its languages, best first.
    public var languages: [String]
    /// espeak-ng's file name, which selects it too, e.g. `gmw/en`.
    public var file: String
    /// `male` or `female`, when known.
    public var gender: String?
    /// espeak-ng's title for it, e.g. `English (Great Britain)`.
    public var title: String?

    /// Reads one entry of a `voices` answer.
    public init(_ object: JSONObject) throws(FieldError) {
        name = try object.requiredString("name")
        language = try object.optionalString("language") ?? name
        languages = object["languages"]?.arrayValue?.compactMap(\.stringValue) ?? [language]
        file = try object.optionalString("file") ?? name
        gender = try object.optionalString("gender")
        title = try object.optionalString("title")
    }
}
