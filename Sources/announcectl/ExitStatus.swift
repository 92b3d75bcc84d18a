// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceClient
import AnnouncePOSIX
import ArgumentParser
import Glibc

/// announcectl's exit statuses.
enum ExitStatus {
    /// Done; with `--wait`, spoken to the end.
    static let success: Int32 = 0
    /// The daemon cannot be reached or answered an error.
    static let failure: Int32 = 1
    /// A usage error.
    static let usage: Int32 = 2
    /// Not heard: with `--wait`, interrupted, cancelled, muted, dropped or nothing to speak;
    /// without it, posted while speech is muted.
    static let notSpoken: Int32 = 3
    /// `lint`: the elements break a guideline.
    static let findings: Int32 = 3

    /// The status for how a post ended.
    static func of(_ result: AnnouncementResult) -> Int32 {
        switch result {
        case .spoken: return success
        case .interrupted, .cancelled, .muted, .dropped, .nothingToSpeak: return notSpoken
        case .failed, .unavailable: return failure
        }
    }
}

/// Ends the command with `status` (returns for 0).
func finish(with status: Int32) throws(ExitCode) {
    if status != ExitStatus.success { throw ExitCode(status) }
}

/// Prints a line to standard output and flushes it at once, so pipes see it while it matters.
func printLine(_ line: String) {
    print(line)
    fflush(nil)
}

/// Prints a line to standard error, prefixed with the program's name.
func printError(_ message: String) {
    printToStandardError("announcectl: \(message)")
}

/// Prints how a post ended: the outcome on standard output, failures on standard error.
func report(_ result: AnnouncementResult) {
    switch result {
    case .failed(let message): printError("announced answered: \(message)")
    case .unavailable(let message): printError(message)
    default: printLine(result.description)
    }
}

/// Fails the command with status 1 after printing what went wrong.
func fail(_ error: AnnouncerError) -> ExitCode {
    printError(error.description)
    return ExitCode(ExitStatus.failure)
}
