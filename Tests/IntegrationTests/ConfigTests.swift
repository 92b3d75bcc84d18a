// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import Glibc
import TestSupport
import Testing

/// A configuration file in a private folder, rewritten by the tests.
final class EditableConfigFile {
    let directory = DaemonProcess.makeTemporaryDirectory()
    var path: String { directory.appendingPathComponent("announced.json").path }

    init(_ text: String) throws { try write(text) }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// Replaces the file's contents in one rename, as editors do.
    func write(_ text: String) throws {
        let temporary = directory.appendingPathComponent("announced.json.new")
        try Data(text.utf8).write(to: temporary)
        guard rename(temporary.path, path) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    }
}

/// A daemon reading a configuration file, with a `NOTIFY_SOCKET` of the test's own: the daemon
/// sends READY=1 once it serves, and again once each reload (SIGHUP) has been applied or refused.
final class ReloadableDaemon {
    let daemon: DaemonProcess
    private let notify: NotifyListener
    private let scratch = DaemonProcess.makeTemporaryDirectory()

    /// Starts the daemon on `file` and waits until it serves.
    init(_ file: EditableConfigFile) throws {
        notify = try NotifyListener(path: scratch.appendingPathComponent("notify").path)
        daemon = try DaemonProcess(
            arguments: ["--config", file.path], environment: ["NOTIFY_SOCKET": notify.path], waitForReady: false)
        guard notify.waitForReady(timeout: 30) else { throw DaemonError.notReady(stderr: daemon.stderrSoFar()) }
    }

    deinit { try? FileManager.default.removeItem(at: scratch) }

    /// Sends SIGHUP: the daemon reloads its file.
    func hangUp() { kill(daemon.process.processIdentifier, SIGHUP) }

    /// Waits until the reload asked for has been applied or refused; whether it was in time.
    func waitForReload() -> Bool { notify.waitForReady(timeout: 30) }

    /// Sends SIGHUP and waits until the reload has been applied or refused.
    func reload() -> Bool {
        hangUp()
        return waitForReload()
    }
}

/// The `ok` line answering a `status` request with `id`.
func statusReply(_ client: LineClient, id: Int) throws -> JSONValue {
    client.send(#"{"op":"status","id":\#(id)}"#)
    return try #require(client.waitFor("ok", id: id))
}

@Suite("Config: the daemon reads its configuration file", .daemonTimeLimit, .onBlockingThreads, .serialized)
struct ConfigTests {
    @Test(
        "a bad configuration file: exit status 1 and one line naming the file and the key",
        arguments: [
            (#"{"rate": 20}"#, "\"rate\""),
            (#"{"earcons": "yes"}"#, "\"earcons\""),
            (#"{"audio": {"output": "speaker"}}"#, "\"audio.output\""),
            (#"{"max_line_bytes": 0}"#, "\"max_line_bytes\""),
            (#"{"ssip_socket": "speechd.sock"}"#, "\"ssip_socket\": must be off, default"),
            ("{\n  \"rate\": 175,,\n}", "line 2"),
        ])
    func badFileExits(text: String, named: String) throws {
        let file = try EditableConfigFile(text)
        let daemon = try DaemonProcess(arguments: ["--config", file.path], waitForReady: false)
        #expect(daemon.waitForExit() == 1)
        let stderr = daemon.stderrText()
        let lines = stderr.split(separator: "\n")
        #expect(lines.count == 1, "one line, got: \(stderr)")
        #expect(stderr.hasPrefix("announced: config file \(file.path)"))
        #expect(stderr.contains(named))
    }

    @Test("a missing --config file, or a bad ANNOUNCED_ variable (ANNOUNCED_SSIP_SOCKET too): exit status 1 naming it")
    func missingFileAndBadVariable() throws {
        let daemon = try DaemonProcess(arguments: ["--config", "/nonexistent/announced.json"], waitForReady: false)
        #expect(daemon.waitForExit() == 1)
        #expect(daemon.stderrText().contains("/nonexistent/announced.json"))
        let variable = try DaemonProcess(environment: ["ANNOUNCED_MAX_LINE_BYTES": "lots"], waitForReady: false)
        #expect(variable.waitForExit() == 1)
        let stderr = variable.stderrText()
        #expect(stderr.contains("ANNOUNCED_MAX_LINE_BYTES"))
        #expect(stderr.split(separator: "\n").count == 1)
        let ssip = try DaemonProcess(environment: ["ANNOUNCED_SSIP_SOCKET": "on"], waitForReady: false)
        #expect(ssip.waitForExit() == 1)
        let ssipError = ssip.stderrText()
        #expect(ssipError.contains("environment variable ANNOUNCED_SSIP_SOCKET: must be off, default"), "\(ssipError)")
        #expect(ssipError.contains(", not \"on\"; correct or unset it"))
        #expect(ssipError.split(separator: "\n").count == 1)
    }

    @Test("values from the file take effect: speech defaults in status, max_line_bytes, max_text_chars")
    func valuesTakeEffect() throws {
        let file = try EditableConfigFile(
            #"{"rate": 300, "pitch": 20, "volume": 150, "voice": "de", "max_line_bytes": 200, "max_text_chars": 10}"#)
        let daemon = try DaemonProcess(arguments: ["--config", file.path])
        let client = try daemon.connect()
        let ok = try statusReply(client, id: 1)
        #expect(ok["rate"] == .integer(300))
        #expect(ok["pitch"] == .integer(20))
        #expect(ok["volume"] == .integer(150))
        #expect(ok["voice"] == .string("de"))

        client.send(announce(2, "this text is longer than ten characters"))
        let tooLong = try #require(client.waitForTerminal(id: 2))
        #expect(tooLong.event == "error")

        client.send(announce(3, String(repeating: "a", count: 300)))
        let line = try #require(client.waitFor { $0.event == "error" && $0["code"] == .string("line-too-long") })
        #expect(line["code"] == .string("line-too-long"))
        #expect(client.waitForEOF())
    }

    @Test("the file in $XDG_CONFIG_HOME is read without --config; a variable beats it and a flag beats both")
    func layering() throws {
        let home = DaemonProcess.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let path = home.appendingPathComponent("announced/announced.json")
        try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"rate": 200, "pitch": 30, "volume": 40}"#.utf8).write(to: path)

        let fileOnly = try DaemonProcess(environment: ["XDG_CONFIG_HOME": home.path])
        var ok = try statusReply(fileOnly.connect(), id: 1)
        #expect(ok["rate"] == .integer(200))
        #expect(ok["pitch"] == .integer(30))

        let withVariable = try DaemonProcess(environment: [
            "XDG_CONFIG_HOME": home.path, "ANNOUNCED_RATE": "250", "ANNOUNCED_PITCH": "60",
        ])
        ok = try statusReply(withVariable.connect(), id: 1)
        #expect(ok["rate"] == .integer(250))
        #expect(ok["pitch"] == .integer(60))
        #expect(ok["volume"] == .integer(40))

        let withFlag = try DaemonProcess(
            arguments: ["--rate", "400"], environment: ["XDG_CONFIG_HOME": home.path, "ANNOUNCED_RATE": "250"])
        ok = try statusReply(withFlag.connect(), id: 1)
        #expect(ok["rate"] == .integer(400))
        #expect(ok["volume"] == .integer(40))
    }

    @Test("an unknown key is logged as a warning naming it, and the daemon runs")
    func unknownKeyWarning() throws {
        let file = try EditableConfigFile(#"{"rate": 200, "ratte": 300}"#)
        let daemon = try DaemonProcess(arguments: ["--config", file.path])
        #expect(try statusReply(daemon.connect(), id: 1)["rate"] == .integer(200))
        #expect(daemon.stop() == 0)
        let warnings = daemon.stderrText().split(separator: "\n").filter { $0.contains("unknown key \"ratte\"") }
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("warning") == true)
    }

    @Test(
        "SIGHUP after editing the file: new defaults in status, status-changed to a subscriber, connection kept; a bad file changes nothing"
    )
    func reloadOnHangup() throws {
        let file = try EditableConfigFile(#"{"rate": 200, "pitch": 40, "voice": "en-us"}"#)
        // Our own NOTIFY_SOCKET: the daemon sends RELOADING=1 and then READY=1 once a reload is done.
        let reloadable = try ReloadableDaemon(file)
        let daemon = reloadable.daemon

        let subscriber = try daemon.connect()
        subscriber.send(#"{"op":"subscribe","id":1,"events":["status"]}"#)
        #expect(subscriber.waitFor("ok", id: 1) != nil)
        #expect(try statusReply(subscriber, id: 2)["rate"] == .integer(200))

        // A bad file: logged, nothing changes, no status-changed.
        try file.write(#"{"rate": 300, "pitch": 500}"#)
        #expect(reloadable.reload())
        var ok = try statusReply(subscriber, id: 3)
        #expect(ok["rate"] == .integer(200))
        #expect(ok["pitch"] == .integer(40))
        #expect(!subscriber.received.contains { $0.event == "status-changed" })

        // A good file: applied, and the subscriber hears status-changed on its open connection.
        try file.write(
            #"{"rate": 320, "pitch": 60, "volume": 80, "voice": "de", "punctuation": "all", "earcons": false}"#)
        reloadable.hangUp()
        let changed = try #require(subscriber.waitFor { $0.event == "status-changed" })
        #expect(changed["rate"] == .integer(320))
        #expect(changed["pitch"] == .integer(60))
        #expect(changed["volume"] == .integer(80))
        #expect(changed["voice"] == .string("de"))
        #expect(reloadable.waitForReload())
        ok = try statusReply(subscriber, id: 4)
        #expect(ok["rate"] == .integer(320))
        #expect(!subscriber.sawEOF)

        // Posts after the reload speak with the new defaults, on the same connection.
        subscriber.send(announce(5, "Reloaded"))
        #expect(subscriber.waitForTerminal(id: 5)?["success"] == .bool(true))
        #expect(daemon.stop() == 0)
        #expect(daemon.stderrText().contains("not reloaded"))
    }

    @Test(
        "SIGHUP with a change a reload cannot apply: one notice naming exactly the keys that changed, the rest applied")
    func restartNotice() throws {
        let file = try EditableConfigFile(#"{"rate": 200}"#)
        let reloadable = try ReloadableDaemon(file)
        let daemon = reloadable.daemon
        let client = try daemon.connect()

        // log_level is overridden by the test's --log-level flag, so its value in effect does not change.
        try file.write(#"{"rate": 210, "max_pending_per_client": 9, "log_level": "error"}"#)
        #expect(reloadable.reload())
        #expect(try statusReply(client, id: 1)["rate"] == .integer(210))
        #expect(daemon.stop() == 0)
        let notices = daemon.stderrText().split(separator: "\n").filter {
            $0.contains("effect when announced restarts")
        }
        #expect(notices.count == 1, "\(notices)")
        let notice =
            "SIGHUP: the change to max_pending_per_client takes effect when announced restarts (systemctl --user restart announced)"
        #expect(notices.first?.hasSuffix(notice) == true, "\(notices)")
    }

    @Test(
        "--pitch, --volume and --punctuation set the defaults over the file: status shows them, and all punctuation is heard"
    )
    func speechFlags() throws {
        let file = try EditableConfigFile(#"{"pitch": 20, "volume": 40, "punctuation": "none"}"#)
        let text = "One, two; three. Four!"
        let silent = try DaemonProcess(arguments: ["--config", file.path])
        let quiet = try silent.connect()
        quiet.send(announce(1, text))
        #expect(quiet.waitForTerminal(id: 1)?["success"] == .bool(true))
        let withoutPunctuation = try silent.wavSamples(seq: 1).count
        #expect(silent.stop() == 0)

        let daemon = try DaemonProcess(arguments: [
            "--config", file.path, "--pitch", "70", "--volume", "150", "--punctuation", "all",
        ])
        let client = try daemon.connect()
        let ok = try statusReply(client, id: 1)
        #expect(ok["pitch"] == .integer(70))
        #expect(ok["volume"] == .integer(150))
        client.send(announce(2, text))
        #expect(client.waitForTerminal(id: 2)?["success"] == .bool(true))
        // "comma", "semicolon", "full stop" and "exclamation mark" spoken: far more audio.
        let withPunctuation = try daemon.wavSamples(seq: 1).count
        #expect(
            withPunctuation > withoutPunctuation * 3 / 2,
            "\(withPunctuation) samples with all punctuation, \(withoutPunctuation) without")
        #expect(daemon.stop() == 0)
    }

    @Test(
        "a bad --pitch, --volume, --punctuation or --ssip-socket is a usage error (exit status 2) that names the flag",
        arguments: [
            ["--pitch", "101"], ["--volume", "-5"], ["--punctuation", "most"], ["--ssip-socket", "speechd.sock"],
        ])
    func badSpeechFlag(arguments: [String]) throws {
        let daemon = try DaemonProcess(arguments: arguments, waitForReady: false)
        #expect(daemon.waitForExit() == 2)
        #expect(daemon.stderrText().contains(arguments[0]))
    }

    @Test(
        "SIGHUP with a language name as the voice (en-gb): reloaded, and the next post speaks British English; an unknown one keeps the old voice"
    )
    func reloadVoiceByLanguage() throws {
        let file = try EditableConfigFile(#"{"voice": "en-us"}"#)
        let reloadable = try ReloadableDaemon(file)
        let daemon = reloadable.daemon
        let client = try daemon.connect()

        try file.write(#"{"voice": "en-gb"}"#)
        #expect(reloadable.reload())
        #expect(try statusReply(client, id: 1)["voice"] == .string("en-gb"))
        client.send(announce(2, "Tomato", #","rate":175"#))
        #expect(client.waitForTerminal(id: 2)?["success"] == .bool(true), "\(client.lines(id: 2).map(\.text))")
        let heard = WAVFile.trimmed(try daemon.wavSamples(seq: 1))
        let british = WAVFile.trimmed(try espeakReference(text: "Tomato", voice: "gmw/en", rate: 175))
        #expect(heard.elementsEqual(british), "heard \(heard.count) samples; espeak-ng's British \(british.count)")

        try file.write(#"{"voice": "no-such-voice"}"#)
        #expect(reloadable.reload())
        #expect(try statusReply(client, id: 3)["voice"] == .string("en-gb"))
        #expect(daemon.stop() == 0)
        #expect(daemon.stderrText().contains("\"no-such-voice\" is not one of espeak-ng's"))
    }
}
