// SPDX-License-Identifier: GPL-3.0-or-later
import AccessibilityLint
import AnnounceProtocol

/// The rules `element` breaks (checked as a top-level element), in table order.
func rules(_ element: Element, language: String? = nil) -> [LintRule] {
    AccessibilityLint.findings(for: [element], language: language).filter { $0.element == element.id }.map(\.rule)
}

/// The rules the element `id` breaks among the findings for `elements`.
func rules(of id: String, in elements: [Element], language: String? = nil) -> [LintRule] {
    AccessibilityLint.findings(for: elements, language: language).filter { $0.element == id }.map(\.rule)
}

/// The message of the finding for `rule` about `element`.
func message(_ rule: LintRule, _ element: Element) -> String? {
    AccessibilityLint.findings(for: [element], language: nil).first { $0.rule == rule }?.message
}
