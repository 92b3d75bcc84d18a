// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceProtocol

/// Checks elements against the label and hint guidelines (the seeds' rules, as the protocol's
/// "Lint" table states them). The daemon runs it for connections that asked for `lint` lines, and
/// `announcectl lint` runs it on a file; both get the same findings.
///
/// Every element given is checked, and every one of its descendants, hidden or not: a hidden
/// element is still posted, and `update` can show it at any time. `missing-label` looks only at
/// focus stops (not a `contain` container, not the children of a `combine` or `ignore` one),
/// treating a hidden element as the stop it becomes when shown. The rules that look for English
/// words run when the language is English (`en`, `en-*`) or not given.
public enum AccessibilityLint {
    /// The findings for elements posted together (a screen's `elements`): each element, then its
    /// descendants depth-first, in the order given; one element's findings in the order of
    /// ``LintRule/allCases``.
    ///
    /// - Parameter language: the BCP 47 language of the texts; nil means English.
    public static func findings(for elements: [Element], language: String?) -> [LintFinding] {
        var findings: [LintFinding] = []
        for element in elements { visit(element, inStopPosition: true, language: language, into: &findings) }
        return findings
    }

    /// The findings for the elements of a speech post: its `element` (unless the same element is
    /// also among its `elements`), then its `elements`, as ``findings(for:language:)`` orders them.
    ///
    /// - Parameter language: the post's language; nil means English.
    public static func findings(for post: SpeechPost, language: String?) -> [LintFinding] {
        findings(for: post.postedElements, language: language)
    }

    /// True when the rules that look for English words apply to text in `language`: `en`, `en-*`,
    /// or no language given.
    public static func isEnglish(_ language: String?) -> Bool {
        TraitNames.primarySubtag(language) == "en"
    }

    /// Checks `element` and its descendants. `inStopPosition` is false below a `combine` or
    /// `ignore` container, whose children are never stops.
    static func visit(_ element: Element, inStopPosition: Bool, language: String?, into findings: inout [LintFinding]) {
        let children = element.children ?? []
        let isContainer = !children.isEmpty && element.effectiveChildrenMode == .contain
        let check = ElementCheck(element: element, isStop: inStopPosition && !isContainer, english: isEnglish(language))
        findings += check.findings()
        for child in children {
            visit(child, inStopPosition: inStopPosition && isContainer, language: language, into: &findings)
        }
    }
}

extension SpeechPost {
    /// The elements the post carries, for the lint: its `element` (unless it is also among its
    /// `elements`), then its `elements`.
    var postedElements: [Element] {
        var elements = self.elements ?? []
        if case .element(let element) = subject, !elements.contains(where: { $0.containsElement(element) }) {
            elements.insert(element, at: 0)
        }
        return elements
    }
}

extension Element {
    /// True when `element` is this element or one of its descendants.
    func containsElement(_ element: Element) -> Bool {
        self == element || (children ?? []).contains { $0.containsElement(element) }
    }
}
