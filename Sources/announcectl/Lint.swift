// SPDX-License-Identifier: GPL-3.0-or-later
import AccessibilityLint
import AnnouncePOSIX
import ArgumentParser
import SystemPackage

extension Announcectl {
    /// `lint [FILE|-]`: the daemon's label and hint checks, without a daemon.
    struct Lint: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "lint",
            abstract: "Check elements against the label and hint guidelines, without a daemon.",
            discussion: """
                FILE (or standard input, for - or no FILE) holds a JSON element object, an array of \
                element objects, or a screen-changed request. Prints ID: RULE: MESSAGE for each finding. \
                Exit status: 0 no findings; 3 findings; 2 the input cannot be read or is not one of those.
                """
        )

        @Argument(
            help: ArgumentHelp("The JSON file; - or nothing reads standard input.", valueName: "file"),
            completion: .file())
        var file: String?

        func run() throws {
            let readsStandardInput = file == nil || file == "-"
            let source = readsStandardInput ? "standard input" : file ?? ""
            let contents =
                try? readsStandardInput
                ? FileDescriptor.standardInput.readToEnd(limit: .max) : FileDescriptor.readFile(source, limit: .max)
            guard let bytes = contents else {
                printError(
                    "lint: cannot read \(source): it does not exist, is not a regular file or is not readable; check the path"
                )
                throw ExitCode(ExitStatus.usage)
            }
            let document: LintDocument
            do {
                document = try LintDocument(bytes: bytes)
            } catch {
                printError("lint: \(source) cannot be checked: \(error)")
                throw ExitCode(ExitStatus.usage)
            }
            let findings = document.findings
            for finding in findings { print(finding) }
            try finish(with: findings.isEmpty ? ExitStatus.success : ExitStatus.findings)
        }
    }
}
