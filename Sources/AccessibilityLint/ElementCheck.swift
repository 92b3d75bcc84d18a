// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol

/// The rules applied to one element.
struct ElementCheck {
    /// The element.
    let element: Element
    /// True when the element is a focus stop (only stops need a label).
    let isStop: Bool
    /// True when the English-only rules apply.
    let english: Bool

    /// The traits a stop speaks: its own, and for a `combine` container also those of its shown
    /// children.
    var spokenTraits: [Trait] {
        var traits = element.traits
        if isStop, element.effectiveChildrenMode == .combine {
            for child in element.children ?? [] where !child.hidden {
                for trait in child.traits where !traits.contains(trait) { traits.append(trait) }
            }
        }
        return traits
    }

    /// The English names VoiceOver speaks for the element's traits, longest first so that "switch
    /// button" is named before "button".
    var spokenTraitNames: [String] {
        spokenTraits.compactMap { TraitNames.spokenName(of: $0, language: "en") }.sorted { $0.count > $1.count }
    }

    /// Every finding, in the order of ``LintRule/allCases``.
    func findings() -> [LintFinding] {
        LintRule.allCases.compactMap { rule in
            guard english || !rule.isLanguageSpecific, let message = message(for: rule) else { return nil }
            return LintFinding(element: element.id, rule: rule, message: message)
        }
    }

    /// What to change when the element breaks `rule`; nil when it follows it.
    func message(for rule: LintRule) -> String? {
        switch rule {
        case .missingLabel: return missingLabel()
        case .labelCapitalized: return label.flatMap(LabelRules.capitalized)
        case .labelPeriod: return label.flatMap(LabelRules.period)
        case .labelHasType: return label.flatMap { LabelRules.hasType($0, traitNames: spokenTraitNames) }
        case .hintCapitalized: return hint.flatMap(HintRules.capitalized)
        case .hintPeriod: return hint.flatMap(HintRules.period)
        case .hintImperative: return hint.flatMap(HintRules.imperative)
        case .hintGesture: return hint.flatMap(HintRules.gesture)
        case .hintRepeatsLabel:
            return hint.flatMap { hint in label.flatMap { HintRules.repeatsLabel(hint, label: $0) } }
        case .hintHasType: return hint.flatMap { HintRules.hasType($0, traitNames: spokenTraitNames) }
        case .adjustableNoValue: return adjustableNoValue()
        }
    }

    /// The label, when it has any text.
    var label: String? { element.label.flatMap { $0.isBlankText ? nil : $0 } }
    /// The hint, when it has any text.
    var hint: String? { element.hint.flatMap { $0.isBlankText ? nil : $0 } }

    /// The traits that make a stop something to act on or look at, which needs a name.
    static let traitsNeedingLabel: [Trait] = [.button, .link, .image, .adjustable, .toggle, .searchField]

    func missingLabel() -> String? {
        guard isStop, let trait = Self.traitsNeedingLabel.first(where: spokenTraits.contains) else { return nil }
        let hasLabel =
            label != nil
            || (element.effectiveChildrenMode == .combine
                && (element.children ?? []).contains { !$0.hidden && !($0.label ?? "").isBlankText })
        guard !hasLabel else { return nil }
        let name = TraitNames.spokenName(of: trait, language: "en") ?? trait.rawValue
        return
            "this \(name) has no label, so VoiceOver users hear only \"\(name)\": give it a label that says what it is or does (\"Share\", \"Play\")"
    }

    func adjustableNoValue() -> String? {
        guard element.traits.contains(.adjustable), (element.value ?? "").isBlankText else { return nil }
        return
            "this adjustable element has no value: give it a value that says its current setting (\"45 percent\", \"3 items\") and update it when it changes"
    }
}
