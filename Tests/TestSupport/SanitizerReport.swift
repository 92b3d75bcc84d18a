// SPDX-License-Identifier: GPL-3.0-or-later
/// Finds a sanitizer's report in what a child process wrote, so that `make tsan` and `make asan`
/// fail when the daemon or its helper (whose output a test captures, and nobody else sees)
/// reports a data race or a memory error.
public enum SanitizerReport {
    /// The lines that start a report of ThreadSanitizer (a data race, or a crash it caught),
    /// AddressSanitizer, LeakSanitizer or UndefinedBehaviorSanitizer; scripts/sanitizer-reports.sh
    /// looks for the same.
    static let markers = [
        "WARNING: ThreadSanitizer:", "ERROR: ThreadSanitizer:", "ERROR: AddressSanitizer:", "ERROR: LeakSanitizer:",
        "runtime error:",
    ]

    /// The first report in `output`, from its first line to the end of its `SUMMARY:` line
    /// (or to the end of `output`); nil when there is none.
    public static func first(in output: String) -> String? {
        guard let start = markers.compactMap({ output.range(of: $0)?.lowerBound }).min() else { return nil }
        let report = output[start...]
        if let summary = report.range(of: "SUMMARY:"), let end = report[summary.upperBound...].firstIndex(of: "\n") {
            return String(report[..<end])
        }
        return String(report)
    }
}
