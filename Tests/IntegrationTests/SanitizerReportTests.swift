// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import Foundation
import TestSupport
import Testing

@Suite("Sanitizer reports in a child process's output", .daemonTimeLimit, .onBlockingThreads)
struct SanitizerReportTests {
    @Test("a ThreadSanitizer report among log lines is found, up to its SUMMARY line")
    func threadSanitizer() {
        let output = """
            2026-11-24T03:00:00+0000 info announced: serving
            ==================
            WARNING: ThreadSanitizer: data race (pid=4242)
              Write of size 8 at 0x7b0400000010 by thread T2:
                #0 Dispatcher.runTurn() Dispatcher.swift:180
            SUMMARY: ThreadSanitizer: data race Dispatcher.swift:180 in Dispatcher.runTurn()
            ==================
            2026-11-24T03:00:01+0000 info announced: stopped

            """
        let report = SanitizerReport.first(in: output)
        #expect(report?.hasPrefix("WARNING: ThreadSanitizer: data race") == true)
        #expect(report?.hasSuffix("in Dispatcher.runTurn()") == true)
    }

    @Test(
        "AddressSanitizer, UndefinedBehaviorSanitizer and ThreadSanitizer crash reports are found; a clean log has none"
    )
    func otherSanitizers() {
        #expect(SanitizerReport.first(in: "==1==ERROR: AddressSanitizer: heap-use-after-free on address 0x6") != nil)
        #expect(SanitizerReport.first(in: "x.c:3:5: runtime error: signed integer overflow") != nil)
        #expect(SanitizerReport.first(in: "==7==ERROR: ThreadSanitizer: SEGV on unknown address 0x000000000000") != nil)
        #expect(SanitizerReport.first(in: "info announced: serving\ninfo announced: stopped\n") == nil)
    }

    /// The chain `make asan` and `make tsan` rely on, end to end with a real report: the run's
    /// sanitizer options reach a process the daemon starts (here Fixtures/sanitizer_report.c as
    /// the espeak-ng helper), its report lands in the run's report folder, and the scan the
    /// Makefile runs over that folder (scripts/sanitizer-reports.sh) fails and prints it. This
    /// test gives the daemon a report folder of its own, so the report does not fail the run.
    @Test(
        "a report by the daemon's child lands in the report folder and fails the scan make asan / make tsan run",
        .enabled(
            if: installedTool("cc") != nil, "needs a C compiler with the sanitizer runtimes (apt-get install gcc)"),
        arguments: [SanitizerFixture.address, .thread]
    )
    func reportFromTheDaemonsChild(fixture: SanitizerFixture) throws {
        let directory = DaemonProcess.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let program = try fixture.build(in: directory)
        let reports = directory.appendingPathComponent("reports")
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        #expect(try SanitizerFixture.scan(reports).status == 0, "an empty report folder passes")

        // The run's own options (make asan's detect_leaks=0), with this test's report folder last.
        let options = [
            ProcessInfo.processInfo.environment[fixture.optionsVariable],
            "log_path=\(reports.path)/report:log_exe_name=1",
        ]
        let daemon = try DaemonProcess(
            environment: [
                "ANNOUNCED_ESPEAK_HELPER": program,
                fixture.optionsVariable: options.compactMap { $0 }.joined(separator: ":"),
            ],
            waitForReady: false
        )
        // The helper ends before its first answer, and the daemon cannot start without one.
        #expect(daemon.waitForExit() == 1)

        let scan = try SanitizerFixture.scan(reports)
        #expect(scan.status == 1)
        #expect(scan.output.contains("report.sanitizer_report."), "named after the program: \(scan.output)")
        #expect(SanitizerReport.first(in: scan.output)?.hasPrefix(fixture.reportStart) == true, "\(scan.output)")
    }
}

/// Fixtures/sanitizer_report.c, built with one sanitizer for one test.
enum SanitizerFixture: CustomTestStringConvertible {
    case address, thread

    static let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures/sanitizer_report.c")
    static let scanScript = systemdTestsRepositoryRoot.appendingPathComponent("scripts/sanitizer-reports.sh")

    var testDescription: String { "-fsanitize=\(self)" }

    /// The variable whose options this sanitizer reads (and where `make` puts `log_path`).
    var optionsVariable: String { self == .address ? "ASAN_OPTIONS" : "TSAN_OPTIONS" }

    /// How the program's report starts.
    var reportStart: String {
        self == .address ? "ERROR: AddressSanitizer: heap-buffer-overflow" : "WARNING: ThreadSanitizer: data race"
    }

    /// Compiles the program into `directory`; its path.
    func build(in directory: URL) throws -> String {
        let output = directory.appendingPathComponent("sanitizer_report").path
        let result = try Self.run(
            try #require(installedTool("cc")),
            ["-Wall", "-Werror", "-g", "-fsanitize=\(self)", "-o", output, Self.source.path, "-lpthread"])
        guard result.status == 0 else { throw SSIPClientError("cc failed (\(result.status)): \(result.output)") }
        return output
    }

    /// Runs the Makefile's scan over `reports`: its exit status and what it printed.
    static func scan(_ reports: URL) throws -> (status: Int32, output: String) {
        try run(scanScript.path, [reports.path])
    }

    private static func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let result = try AnnouncectlProcess.run(arguments, executable: URL(fileURLWithPath: tool))
        return (result.status, result.stdout + result.stderr)
    }
}
