// SPDX-License-Identifier: GPL-3.0-or-later
/// A label or hint guideline the lint checks, named as on the wire (the `rule` of a `lint` line).
public enum LintRule: String, Sendable, Hashable, CaseIterable {
    /// A stop with trait `button`, `link`, `image`, `adjustable`, `toggle` or `search-field` has no
    /// label (a `combine` container counts its children's labels).
    case missingLabel = "missing-label"
    /// The label starts with a lowercase letter.
    case labelCapitalized = "label-capitalized"
    /// The label ends with a period.
    case labelPeriod = "label-period"
    /// The label names a control type as a word ("Save button").
    case labelHasType = "label-has-type"
    /// The hint starts with a lowercase letter.
    case hintCapitalized = "hint-capitalized"
    /// The hint does not end with a period.
    case hintPeriod = "hint-period"
    /// The hint's first word is not a third-person singular verb ("Play", not "Plays").
    case hintImperative = "hint-imperative"
    /// The hint names a gesture or input (tap, swipe, click, press).
    case hintGesture = "hint-gesture"
    /// The hint contains the label as a whole word or phrase.
    case hintRepeatsLabel = "hint-repeats-label"
    /// The hint names one of the element's trait names as a word.
    case hintHasType = "hint-has-type"
    /// An `adjustable` element has no value.
    case adjustableNoValue = "adjustable-no-value"

    /// True for the rules that only hold for English text: they look for English words.
    public var isLanguageSpecific: Bool {
        switch self {
        case .labelHasType, .hintImperative, .hintGesture, .hintHasType: return true
        default: return false
        }
    }
}

/// One guideline an element does not follow.
public struct LintFinding: Sendable, Hashable, CustomStringConvertible {
    /// The id of the element.
    public var element: String
    /// The guideline.
    public var rule: LintRule
    /// What is wrong and what to change, for the app's author.
    public var message: String

    /// Creates a finding.
    public init(element: String, rule: LintRule, message: String) {
        self.element = element
        self.rule = rule
        self.message = message
    }

    /// `ID: RULE: MESSAGE`, as `announcectl lint` prints it.
    public var description: String { "\(element): \(rule.rawValue): \(message)" }
}
