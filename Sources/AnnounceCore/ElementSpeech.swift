// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceProtocol

extension Element {
    /// What VoiceOver would say for this element: the non-empty parts among label, value and the
    /// spoken trait names (in `language`), joined by `", "`, then `". "` and the hint when there is
    /// one (the hint alone when nothing precedes it). Empty when there is nothing to say.
    ///
    /// `{"label":"Save","traits":["button"],"hint":"Saves the document."}` gives
    /// `Save, button. Saves the document.`
    public func spokenText(language: String?) -> String {
        var parts: [String] = []
        if let label, !label.isBlank { parts.append(label) }
        if let value, !value.isBlank { parts.append(value) }
        var seen = Set<Trait>()
        for trait in traits where seen.insert(trait).inserted {
            if let name = TraitNames.spokenName(of: trait, language: language) { parts.append(name) }
        }
        let head = parts.joined(separator: ", ")
        guard let hint, !hint.isBlank else { return head }
        return head.isEmpty ? hint : head + ". " + hint
    }
}

extension Array where Element == AnnounceProtocol.Element {
    /// The elements in reading order: higher `sort_priority` first (absent counts as 0), ties in
    /// array order.
    public func inReadingOrder() -> [AnnounceProtocol.Element] {
        enumerated()
            .sorted { lhs, rhs in
                let left = lhs.element.sortPriority ?? 0
                let right = rhs.element.sortPriority ?? 0
                return left != right ? left > right : lhs.offset < rhs.offset
            }
            .map(\.element)
    }
}

extension String {
    /// True when the string is empty or only white space.
    var isBlank: Bool {
        !unicodeScalars.contains { scalar in
            // ASCII answered without a Unicode property lookup: this runs for every post.
            scalar.isASCII ? !(scalar == " " || (0x09...0x0D).contains(scalar.value)) : !scalar.properties.isWhitespace
        }
    }
}
