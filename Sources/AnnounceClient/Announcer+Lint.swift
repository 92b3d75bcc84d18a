// SPDX-License-Identifier: Apache-2.0
internal import Glibc

/// A guideline one of this announcer's elements does not follow, as the daemon reports it to an
/// announcer created with `lint: true`.
public struct LintReport: Sendable, Hashable, CustomStringConvertible {
    /// The element's id.
    public var element: String
    /// The rule, e.g. `label-period` (the protocol's "Lint" table lists them).
    public var rule: String
    /// What is wrong and what to change.
    public var message: String

    /// Creates a report.
    public init(element: String, rule: String, message: String) {
        self.element = element
        self.rule = rule
        self.message = message
    }

    /// `ID: RULE: MESSAGE`, as `announcectl lint` prints a finding.
    public var description: String { "\(element): \(rule): \(message)" }
}

extension Announcer {
    /// Runs `handler` on the main queue for each finding about an element this announcer posted
    /// (with `lint: true` only). Nil removes it; findings then go to standard error.
    public func onLint(perform handler: (@MainActor @Sendable (LintReport) -> Void)?) {
        state.withLock { $0.lintHandler = handler }
    }

    /// Hands a finding to the handler, else writes it to standard error.
    func report(_ finding: LintReport) {
        if let handler = state.withLock({ $0.lintHandler }) {
            Self.onMain { handler(finding) }
        } else {
            let line = Array("announced lint: \(finding)\n".utf8)
            _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        }
    }
}
