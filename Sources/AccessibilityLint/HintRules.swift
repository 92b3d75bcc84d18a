// SPDX-License-Identifier: GPL-3.0-or-later
/// The rules for hints: one capitalized sentence that starts with a verb in the third person and
/// says what happens, without the gesture, the label or the control type.
enum HintRules {
    /// The gestures and inputs a hint must not name, with their inflections, longest first so that
    /// "double tap" is named before "tap".
    static let gestures = [
        "double tap", "double tapping", "double tapped", "double taps", "tap", "taps", "tapping", "tapped",
        "swipe", "swipes", "swiping", "swiped", "click", "clicks", "clicking", "clicked",
        "press", "presses", "pressing", "pressed",
    ].sorted { $0.count > $1.count }

    static func capitalized(_ hint: String) -> String? {
        guard let first = hint.trimmed.first, first.isLowercase else { return nil }
        return
            "the hint \(hint.quoted) starts with a lowercase letter: begin it with a capital (\(LabelRules.capitalizingFirst(hint).quoted))"
    }

    static func period(_ hint: String) -> String? {
        guard let last = hint.trimmed.last, last != ".", last != "\u{3002}" else { return nil }
        return
            "the hint \(hint.quoted) does not end with a period: end it with one (\((String(hint.trimmed) + ".").quoted)) so VoiceOver reads it as a sentence"
    }

    static func imperative(_ hint: String) -> String? {
        guard let first = Words.split(hint).first, !first.lowercased().hasSuffix("s") else { return nil }
        return
            "the hint \(hint.quoted) starts with \"\(first)\", not a verb in the third person: say what the element does (\"Plays the song.\", not \"Play the song.\")"
    }

    static func gesture(_ hint: String) -> String? {
        guard let gesture = Words.firstPhrase(in: Words.of(hint), among: gestures) else { return nil }
        return
            "the hint \(hint.quoted) names the gesture \"\(gesture)\": say what happens, not how to make it happen; VoiceOver users know the gestures, and keyboard users make none (\"Opens the message.\")"
    }

    static func repeatsLabel(_ hint: String, label: String) -> String? {
        guard Words.contains(Words.of(hint), phrase: Words.of(label)) else { return nil }
        return
            "the hint \(hint.quoted) repeats the label \(label.quoted), which VoiceOver has just spoken: say only what activating the element does"
    }

    static func hasType(_ hint: String, traitNames: [String]) -> String? {
        guard let type = Words.firstPhrase(in: Words.of(hint), among: traitNames) else { return nil }
        return
            "the hint \(hint.quoted) names the type \"\(type)\", which VoiceOver speaks before the hint: remove it and say only what happens"
    }
}
