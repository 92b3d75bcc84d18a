// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import Foundation
import Glibc
import TestSupport
import Testing

/// What a setting needs is loaded only when the setting asks for it: CLD2 (and the C++ library it
/// links) is mapped into the daemon only with `language_switching: detect`, once a phrase is asked
/// about (`LanguageRunEventTests.detectGerman` checks that), never by the default `script`; an
/// audio library only by the output that plays through it, and never by an engine helper.
@Suite("Libraries loaded only when a setting needs them", .onBlockingThreads)
struct LazyLibraryTests {
    /// Whether the process `pid` maps a file whose name contains `library`. Read to its end:
    /// `String(contentsOfFile:)` trusts the size /proc gives (none) and stops after its first read.
    static func maps(_ pid: Int32, _ library: String) throws -> Bool {
        let file = try #require(FileHandle(forReadingAtPath: "/proc/\(pid)/maps"))
        defer { try? file.close() }
        return String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self).contains(library)
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

    /// The audio libraries: libpulse (libpulse.so.0 and the libpulsecommon it links), libasound,
    /// and pcaudio, which libespeak-ng links.
    static let audioLibraries = ["libpulse", "libasound", "libpcaudio"]

    /// Speaks one post on `daemon` to its end, and returns its one engine helper's process id.
    static func speakOnce(_ daemon: DaemonProcess) throws -> Int32 {
        let client = try daemon.connect()
        client.send(announce(1, "Download complete"))
        let finished = try #require(client.waitForTerminal(id: 1))
        #expect(finished["success"] == .bool(true), "\(finished.text)")
        let helpers = EngineCrashTests.children(of: daemon.process.processIdentifier)
        try #require(helpers.count == 1, "one espeak-ng helper: \(helpers)")
        return helpers[0]
    }

    @Test("wav: neither the daemon nor its espeak-ng helper maps libpulse, libasound or pcaudio")
    func wavOutputMapsNoAudioLibrary() throws {
        let daemon = try DaemonProcess()
        let helper = try Self.speakOnce(daemon)
        for library in Self.audioLibraries {
            #expect(try !Self.maps(daemon.process.processIdentifier, library), "the daemon maps \(library)")
            #expect(try !Self.maps(helper, library), "the espeak-ng helper maps \(library)")
        }
        #expect(daemon.stop() == 0)
    }

    @Test(
        "pulse: the daemon maps libpulse once it plays, not libasound; its espeak-ng helper maps none",
        .enabled(if: HeadlessPulseAudio.isInstalled, HeadlessPulseAudio.missingReason))
    func pulseOutputMapsLibpulseInTheDaemonOnly() throws {
        let server = try HeadlessPulseAudio()
        let daemon = try DaemonProcess(audio: "pulse", environment: server.clientEnvironment)
        let helper = try Self.speakOnce(daemon)
        #expect(try Self.maps(daemon.process.processIdentifier, "libpulse"))
        #expect(try !Self.maps(daemon.process.processIdentifier, "libasound"))
        for library in Self.audioLibraries {
            #expect(try !Self.maps(helper, library), "the espeak-ng helper maps \(library)")
        }
        #expect(daemon.stop() == 0)
    }
}
