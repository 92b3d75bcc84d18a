// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import TestSupport
import Testing

/// `announcectl voices install` and `remove`, the real binary, with tiny fake pairs (never
/// spoken with): installed voices reach the running daemon; wrong or partial files are refused
/// with what to do, and leave nothing in the voice directory.
@Suite("announcectl voices install and remove", .daemonTimeLimit, .onBlockingThreads)
struct VoiceInstallTests {
    /// Runs announcectl with the daemon's socket and its XDG_DATA_HOME.
    func voices(_ daemon: DaemonProcess, _ arguments: String...) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        try AnnouncectlProcess.run(
            ["--socket", daemon.socketPath, "voices"] + arguments,
            environment: [
                "XDG_DATA_HOME": daemon.directory.appendingPathComponent("data").path, "ANNOUNCED_SYSTEM_VOICES": "",
            ]
        )
    }

    /// Everything in the daemon's voice directory, hidden files too.
    func installedFiles(_ daemon: DaemonProcess) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: daemon.voicesDirectory)) ?? []).sorted()
    }

    @Test(
        "a file:// URL of the .onnx installs the pair (its .onnx.json fetched beside it); the running daemon lists it; remove takes it away"
    )
    func installFromURL() throws {
        let daemon = try DaemonProcess()
        let source = try TemporaryDirectory()
        defer { source.remove() }
        try FakeVoice.install(
            "en_US-fake-medium", in: source.path + "/voice", config: FakeVoice.config(dataset: "fake"))
        let installed = try voices(daemon, "install", "file://\(source.path)/voice/en_US-fake-medium.onnx")
        #expect(installed.status == 0, "\(installed)")
        #expect(
            installed.stdout == "installed en_us-fake-medium (en-us, medium quality) in \(daemon.voicesDirectory)\n")
        #expect(
            installedFiles(daemon) == ["en_US-fake-medium.onnx", "en_US-fake-medium.onnx.json"],
            "no temporary file is left")
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: daemon.voicesDirectory + "/en_US-fake-medium.onnx"))
                == Data(FakeVoice.model))
        #expect(daemon.waitForStderr(containing: "piper voices changed voices=en_us-fake-medium", timeout: 10))
        let listed = try voices(daemon, "--lang", "en")
        #expect(listed.stdout.contains("en_us-fake-medium"), "\(listed)")

        let removed = try voices(daemon, "remove", "en_us-fake-medium")
        #expect(removed.status == 0, "\(removed)")
        #expect(installedFiles(daemon).isEmpty)
        #expect(daemon.waitForStderr(containing: "piper voices changed voices=\"\"", timeout: 10))
        #expect(try !voices(daemon, "--lang", "en").stdout.contains("en_us-fake-medium"))
        let again = try voices(daemon, "remove", "en_us-fake-medium")
        #expect(again.status == 1 && again.stderr.contains("no voice named en_us-fake-medium"), "\(again)")
    }

    @Test(
        "install ends once the running daemon has the voice: `set --voice` at once takes it; after remove, at once refuses it"
    )
    func installIsSeenByTheDaemonAtOnce() throws {
        let daemon = try DaemonProcess()
        let source = try TemporaryDirectory()
        defer { source.remove() }
        let model = try FakeVoice.install(
            "en_US-fake-medium", in: source.path, config: FakeVoice.config(dataset: "fake"))
        let installed = try voices(daemon, "install", model)
        #expect(installed.status == 0 && installed.stderr.isEmpty, "\(installed)")
        let set = try AnnouncectlProcess.run(["--socket", daemon.socketPath, "set", "--voice", "en_us-fake-medium"])
        #expect(set.status == 0, "\(set)")

        #expect(try voices(daemon, "remove", "en_us-fake-medium").status == 0)
        let refused = try AnnouncectlProcess.run(["--socket", daemon.socketPath, "set", "--voice", "en_us-fake-medium"])
        #expect(refused.status == 1 && refused.stderr.contains("unknown voice"), "\(refused)")
    }

    @Test("a daemon that looks in another voice directory: install warns that it does not list the voice")
    func installWarnsWhenTheDaemonLooksElsewhere() throws {
        let daemon = try DaemonProcess()
        let source = try TemporaryDirectory()
        defer { source.remove() }
        let model = try FakeVoice.install("en_US-fake-medium", in: source.path)
        let installed = try AnnouncectlProcess.run(
            ["--socket", daemon.socketPath, "voices", "install", model],
            environment: ["XDG_DATA_HOME": source.path + "/elsewhere", "ANNOUNCED_SYSTEM_VOICES": ""])
        #expect(installed.status == 0, "\(installed)")
        #expect(
            installed.stderr.contains("warning: the running daemon does not list en_us-fake-medium"), "\(installed)")
    }

    @Test(
        "a percent-encoded URL installs under the decoded file name; a URL curl cannot fetch is refused with curl's reason"
    )
    func installFromEncodedURL() throws {
        let daemon = try DaemonProcess()
        let source = try TemporaryDirectory()
        defer { source.remove() }
        try FakeVoice.install(
            "en_US-fake-medium", in: source.path + "/voice", config: FakeVoice.config(dataset: "fake"))
        let installed = try voices(daemon, "install", "file://\(source.path)/voice/en%5FUS-fake%2Dmedium.onnx")
        #expect(installed.status == 0, "\(installed)")
        #expect(
            installed.stdout == "installed en_us-fake-medium (en-us, medium quality) in \(daemon.voicesDirectory)\n")
        #expect(installedFiles(daemon) == ["en_US-fake-medium.onnx", "en_US-fake-medium.onnx.json"])

        let missing = try voices(daemon, "install", "file://\(source.path)/none/en_GB-gone-low.onnx")
        #expect(missing.status == 1, "\(missing)")
        let reason =
            "en_GB-gone-low.onnx cannot be fetched from file://\(source.path)/none/en_GB-gone-low.onnx: curl: (37)"
        #expect(missing.stderr.contains(reason), "\(missing)")
        #expect(
            installedFiles(daemon) == ["en_US-fake-medium.onnx", "en_US-fake-medium.onnx.json"],
            "the refused install leaves nothing")
    }

    @Test("a .onnx path and a directory with one pair install too; installing again replaces the pair")
    func installFromPathAndDirectory() throws {
        let daemon = try DaemonProcess()
        let source = try TemporaryDirectory()
        defer { source.remove() }
        let model = try FakeVoice.install(
            "de_DE-fake-low", in: source.path + "/a",
            config: FakeVoice.config(code: "de_DE", quality: "low", espeak: "de"))
        #expect(try voices(daemon, "install", model).status == 0)
        #expect(daemon.waitForStderr(containing: "piper voices changed voices=de_de-fake-low", timeout: 10))
        try FakeVoice.install(
            "de_DE-fake-low", in: source.path + "/b",
            config: FakeVoice.config(code: "de_DE", quality: "high", espeak: "de"))
        let replaced = try voices(daemon, "install", source.path + "/b")
        #expect(replaced.status == 0, "\(replaced)")
        #expect(installedFiles(daemon) == ["de_DE-fake-low.onnx", "de_DE-fake-low.onnx.json"])
        // Listed again when replaced by the pair of another quality.
        #expect(daemon.waitForStderr(containing: "piper voices changed voices=de_de-fake-low", count: 2, timeout: 10))
        let listed = try voices(daemon, "--lang", "de")
        #expect(
            listed.stdout.split(separator: "\n").contains { $0.hasPrefix("de_de-fake-low ") && $0.contains(" high ") },
            "\(listed.stdout)")
    }

    @Test(
        "a wrong or partial pair is refused, saying which file and what to do, and nothing is left in the voice directory",
        arguments: [
            ("cut", "en_US-cut-medium.onnx is cut short or damaged"),
            ("no-map", "en_US-no-map-medium.onnx.json has no \"phoneme_id_map\""),
            ("half-json", "en_US-half-json-medium.onnx.json is not valid JSON"),
            ("text", "en_US-text-medium.onnx does not start like an ONNX model"),
            ("no-json", "en_US-no-json-medium.onnx.json cannot be fetched"),
        ]
    )
    func refusals(kind: String, message: String) throws {
        let daemon = try DaemonProcess()
        let source = try TemporaryDirectory()
        defer { source.remove() }
        let stem = "en_US-\(kind)-medium"
        let config = FakeVoice.config()
        switch kind {
        case "cut": try FakeVoice.install(stem, in: source.path, model: Array(FakeVoice.model.prefix(12)))
        case "no-map":
            try FakeVoice.install(
                stem, in: source.path, config: config.replacingOccurrences(of: "phoneme_id_map", with: "phonemes"))
        case "half-json": try FakeVoice.install(stem, in: source.path, config: String(config.prefix(config.count / 2)))
        case "text": try FakeVoice.install(stem, in: source.path, model: Array("<html>Not Found</html>".utf8))
        default:
            try FakeVoice.install(stem, in: source.path)
            try FileManager.default.removeItem(atPath: source.path + "/\(stem).onnx.json")
        }
        let result = try voices(daemon, "install", "file://\(source.path)/\(stem).onnx")
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("not installed: \(message)"), "\(result.stderr)")
        #expect(installedFiles(daemon).isEmpty, "left behind: \(installedFiles(daemon))")
        #expect(try !voices(daemon).stdout.contains(stem.lowercased()))
    }

    @Test(
        "a source that is not a pair is refused before anything is fetched",
        arguments: [
            ("ftp://example.invalid/v.onnx", "only https:// and file:// URLs"),
            ("https://example.invalid/voice.zip", "must name the voice's .onnx file"),
            ("/nonexistent/v.onnx", "does not exist"),
        ])
    func badSources(source: String, message: String) throws {
        let daemon = try DaemonProcess()
        let result = try voices(daemon, "install", source)
        #expect(result.status == 1 && result.stderr.contains(message), "\(result)")
        #expect(installedFiles(daemon).isEmpty)
    }
}
