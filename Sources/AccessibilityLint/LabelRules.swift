// SPDX-License-Identifier: GPL-3.0-or-later
/// The rules for labels: short, capitalized, no final period, no control type.
enum LabelRules {
    /// The words that name a control type in any label, besides the element's own trait names.
    static let typeWords = ["button", "link", "image", "tab"]

    static func capitalized(_ label: String) -> String? {
        guard let first = label.trimmed.first, first.isLowercase else { return nil }
        return
            "the label \(label.quoted) starts with a lowercase letter: begin it with a capital (\(capitalizingFirst(label).quoted)) so VoiceOver reads it with the right inflection"
    }

    static func period(_ label: String) -> String? {
        let text = label.trimmed
        guard text.last == "." else { return nil }
        let fixed = String(text.dropLast(text.reversed().prefix { $0 == "." }.count))
        return
            "the label \(label.quoted) ends with a period: remove it (\(fixed.quoted)); a label is a name, not a sentence"
    }

    static func hasType(_ label: String, traitNames: [String]) -> String? {
        let words = Words.of(label)
        guard let type = Words.firstPhrase(in: words, among: traitNames + typeWords) else { return nil }
        return
            "the label \(label.quoted) names the type \"\(type)\": remove it; the element's traits already tell VoiceOver users what kind of control it is"
    }

    /// `text` trimmed, with its first character upper-cased.
    static func capitalizingFirst(_ text: String) -> String {
        let trimmed = text.trimmed
        guard let first = trimmed.first else { return "" }
        return first.uppercased() + trimmed.dropFirst()
    }
}
