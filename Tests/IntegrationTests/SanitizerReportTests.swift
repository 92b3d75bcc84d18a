import BlockingThreads
import TestSupport
import Testing

@Suite("Sanitizer reports in a child process's output", .onBlockingThreads)
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

    @Test("AddressSanitizer and UndefinedBehaviorSanitizer reports are found; a clean log has none")
    func otherSanitizers() {
        #expect(SanitizerReport.first(in: "==1==ERROR: AddressSanitizer: heap-use-after-free on address 0x6") != nil)
        #expect(SanitizerReport.first(in: "x.c:3:5: runtime error: signed integer overflow") != nil)
        #expect(SanitizerReport.first(in: "info announced: serving\ninfo announced: stopped\n") == nil)
    }
}
