// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import Foundation
import Glibc
import Testing

/// What a setting needs is loaded only when the setting asks for it: CLD2 (and the C++ library it
/// links) is mapped into the daemon only with `language_switching: detect`, once a phrase is asked
/// about (`LanguageRunEventTests.detectGerman` checks that), never by the default `script`.
@Suite("Libraries loaded only when a setting needs them", .onBlockingThreads)
struct LazyLibraryTests {
    /// Whether the process `pid` maps a file whose name contains `library`.
    static func maps(_ pid: Int32, _ library: String) throws -> Bool {
        try String(contentsOfFile: "/proc/\(pid)/maps", encoding: .utf8).contains(library)
    }

    @Test("script (the default): a post with a Russian word is cut into runs, and libcld2 is never mapped")
    func scriptLeavesCLD2Unloaded() throws {
        let daemon = try DaemonProcess()
        let watcher = try RunWatcher(daemon)
        let text = "The file Привет was saved"
        let runs = try watcher.runs(seq: try watcher.speak(text), of: text)
        #expect(runs.map(\.language) == ["en-us", "ru", "en-us"], "\(runs.map(\.summary))")
        #expect(try !Self.maps(daemon.process.processIdentifier, "libcld2"))
        #expect(daemon.stop() == 0)
    }
}
