// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import TestSupport
import Testing

/// The desktop clients' programs of the tests, in `Tests/DesktopClients`.
let desktopClients = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("DesktopClients")

/// Qt 6's QTextToSpeech from Python (python3-pyqt6.qttexttospeech) with Qt's speechd engine
/// (qt6-speech-speechd-plugin).
enum QtTextToSpeech {
    static var isInstalled: Bool {
        let python = "/usr/lib/python3/dist-packages/PyQt6"
        let bindings = ((try? FileManager.default.contentsOfDirectory(atPath: python)) ?? []).contains {
            $0.hasPrefix("QtTextToSpeech.")
        }
        // The plugin sits in the multiarch folder: /usr/lib/<triplet>/qt6/plugins/texttospeech.
        let plugin = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib")) ?? []).contains {
            FileManager.default.fileExists(
                atPath: "/usr/lib/\($0)/qt6/plugins/texttospeech/libqtexttospeech_speechd.so")
        }
        return bindings && plugin && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
    }
    static let missing: Comment =
        "needs Qt 6's speechd plugin and its Python bindings (apt-get install qt6-speech-speechd-plugin python3-pyqt6.qttexttospeech)"
}

@Suite(
    "Desktop: Qt 6's QTextToSpeech through the daemon's SSIP socket", .daemonTimeLimit, .onBlockingThreads,
    .enabled(if: QtTextToSpeech.isInstalled, QtTextToSpeech.missing)
)
struct DesktopQtTests {
    @Test(
        "two utterances: the state goes Ready → Speaking → Ready for each, and the daemon speaks each to its end before the next"
    )
    func stateFollowsEachUtterance() throws {
        let ssip = try SSIPDaemon()
        let watcher = try speechWatcher(ssip.daemon)
        let session = try DesktopSession()
        let texts = ["The first Qt utterance", "The second Qt utterance"]
        let result = try session.run(
            "/usr/bin/python3", [desktopClients.appendingPathComponent("qt-text-to-speech.py").path] + texts,
            extra: ["SPEECHD_ADDRESS": "unix_socket:\(ssip.ssipPath)", "QT_QPA_PLATFORM": "offscreen"], timeout: 120
        )
        #expect(result.status == 0, "\(result.output)")
        let lines = result.output.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("qt.") }
        #expect(
            lines == [
                "engines speechd", "initial Ready", "say 1", "state Speaking", "state Ready", "say 2", "state Speaking",
                "state Ready",
            ], "\(result.output)")
        var seqs: [Int] = []
        for text in texts {
            let started = try #require(
                watcher.waitFor {
                    $0.event == "speech" && $0["state"] == .string("started") && $0["text"] == .string(text)
                },
                "\(watcher.received.map(\.text))"
            )
            #expect(
                started["client"]?.stringValue?.hasSuffix(":QTextToSpeech:main") == true,
                "Qt's client name: \(started.text)")
            let seq = Int(try #require(started["seq"]?.integerValue))
            #expect(try #require(watcher.waitForSpeech("finished", seq: seq))["success"] == .bool(true))
            #expect(!WAVFile.trimmed(try ssip.daemon.wavSamples(seq: seq)).isEmpty, "\(text) was heard")
            seqs.append(seq)
        }
        #expect(watcher.speechState("finished \(seqs[0])", precedes: "started \(seqs[1])"), "\(watcher.speechStates)")
    }
}

/// speechd-el, Emacs's speech-dispatcher client (package speechd-el), in `emacs --batch`.
enum SpeechdEl {
    static let directory = "/usr/share/emacs/site-lisp/speechd-el"
    static var isInstalled: Bool {
        installedTool("emacs") != nil && FileManager.default.fileExists(atPath: directory + "/speechd.el")
    }
    static let missing: Comment = "needs Emacs and speechd-el (apt-get install emacs-nox speechd-el)"
}

@Suite(
    "Desktop: Emacs's speechd-el through the daemon's SSIP socket", .daemonTimeLimit, .onBlockingThreads,
    .enabled(if: SpeechdEl.isInstalled, SpeechdEl.missing)
)
struct DesktopEmacsTests {
    @Test("speechd-say-text: the daemon speaks the text to its end under speechd-el's client name")
    func sayText() throws {
        let ssip = try SSIPDaemon()
        let watcher = try speechWatcher(ssip.daemon)
        let session = try DesktopSession()
        // speechd-el finds the socket in SPEECHD_SOCK (not SPEECHD_ADDRESS). Its autospawn is off
        // in the script; a speech-dispatcher that only fails stands first on PATH all the same.
        let bin = session.directory.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: bin.appendingPathComponent("speech-dispatcher").path, withDestinationPath: "/bin/false")
        let text = "Hello from Emacs, through speechd-el"
        let result = try session.run(
            try #require(installedTool("emacs")),
            [
                "--batch", "--no-site-file", "-L", SpeechdEl.directory, "-l",
                desktopClients.appendingPathComponent("speechd-el-say.el").path, text,
            ],
            extra: [
                "SPEECHD_SOCK": ssip.ssipPath,
                "PATH": bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            ],
            timeout: 60
        )
        #expect(result.status == 0 && result.output.contains("said"), "\(result.output)")
        let started = try #require(
            watcher.waitFor { $0.event == "speech" && $0["state"] == .string("started") },
            "\(watcher.received.map(\.text))"
        )
        #expect(started["text"] == .string(text))
        #expect(
            started["client"]?.stringValue?.hasSuffix(":Emacs:default") == true,
            "speechd-el's client name: \(started.text)")
        let seq = Int(try #require(started["seq"]?.integerValue))
        let finished = try #require(watcher.waitForSpeech("finished", seq: seq))
        #expect(
            finished["success"] == .bool(true), "spoken to its end after Emacs closed its connection: \(finished.text)")
        // About two seconds of speech: more than half a second of it at 22050 Hz.
        #expect(WAVFile.trimmed(try ssip.daemon.wavSamples(seq: seq)).count > 22050 / 2)
    }
}
