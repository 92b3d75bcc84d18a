// SPDX-License-Identifier: GPL-3.0-or-later
import AccessibilityLint
import AnnounceProtocol

extension Dispatcher {
    /// What `hello`'s `ok` lists in `features`: the additions to protocol 1 this daemon serves.
    public static let features: [String] = [
        "navigation", "lint", "voices", "short-posts", "client-cancel", "pause", "history",
    ]

    /// Sends `client` one `lint` line per finding about the elements of `post` (its `element` and
    /// `elements`, with their descendants), when the connection asked for them in `hello`.
    /// `language` is the post's resolved language; the English-only rules run when it is English.
    func sendLint(for post: SpeechPost, language: String?, to client: ClientID) {
        guard clients[client]?.wantsLint == true else { return }
        sendLintLines(AccessibilityLint.findings(for: post, language: language), to: client)
    }

    /// Sends `client` one `lint` line per finding about `elements` (with their descendants), when
    /// the connection asked for them in `hello`. For requests other than speech posts, e.g.
    /// `update` with the element as it is after the change; `language` nil means the language of
    /// the daemon's default voice.
    func sendLint(for elements: [Element], language: String? = nil, to client: ClientID) {
        guard clients[client]?.wantsLint == true else { return }
        sendLintLines(lintFindings(for: elements, language: language), to: client)
    }

    /// The findings about `elements` (with their descendants), in `language`, else the language of
    /// the daemon's default voice.
    func lintFindings(for elements: [Element], language: String? = nil) -> [LintFinding] {
        AccessibilityLint.findings(for: elements, language: language ?? voiceIndex.language(ofVoice: defaults.voice))
    }

    /// Queues one `lint` line per finding for `client`.
    private func sendLintLines(_ findings: [LintFinding], to client: ClientID) {
        for finding in findings {
            send(.lint(element: finding.element, rule: finding.rule.rawValue, message: finding.message), to: client)
        }
    }
}
