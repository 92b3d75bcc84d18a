// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import TestSupport
import Testing

/// A browser whose Web Speech API speaks through libspeechd (shared/notes/desktop-clients.md).
enum WebSpeechBrowser: String, Sendable {
    case firefox = "Firefox ESR"
    case chromium = "Chromium"

    var path: String? { installedTool(self == .firefox ? "firefox-esr" : "chromium") }
    var missing: Comment {
        self == .firefox
            ? "needs Firefox ESR (apt-get install firefox-esr)" : "needs Chromium (apt-get install chromium)"
    }

    /// Whether `name` is the CLIENT_NAME the browser's libspeechd connection gives itself.
    func isClientName(_ name: String?) -> Bool {
        guard let name else { return false }
        // Firefox: spd_open("firefox", "web speech api", "who", ...); Chromium: the user, then "chrome".
        return self == .firefox ? name == "who:firefox:web speech api" : name.hasSuffix(":chrome:extension_api")
    }

    /// The command line that opens `url` headless with the profile in `profile`; the page's
    /// `console.log` lines come on standard output (Firefox) or standard error (Chromium).
    func arguments(profile: URL, url: String) throws -> [String] {
        switch self {
        case .firefox:
            let prefs = [
                #"user_pref("devtools.console.stdout.content", true);"#,
                #"user_pref("browser.shell.checkDefaultBrowser", false);"#,
                #"user_pref("browser.startup.homepage_override.mstone", "ignore");"#,
                #"user_pref("datareporting.policy.dataSubmissionEnabled", false);"#,
                #"user_pref("toolkit.telemetry.reportingpolicy.firstRun", false);"#,
                #"user_pref("app.update.disabledForTesting", true);"#,
                #"user_pref("media.webspeech.synth.enabled", true);"#,
            ]
            try Data((prefs.joined(separator: "\n") + "\n").utf8).write(to: profile.appendingPathComponent("user.js"))
            return ["--headless", "--no-remote", "--profile", profile.path, url]
        case .chromium:
            return [
                "--headless=new", "--no-sandbox", "--no-first-run", "--disable-gpu", "--enable-speech-dispatcher",
                // Without a user gesture, speak() fails with not-allowed.
                "--autoplay-policy=no-user-gesture-required",
                "--enable-logging=stderr", "--v=0", "--user-data-dir=\(profile.path)", url,
            ]
        }
    }
}

/// `Tests/DesktopClients/web-speech.html` open in a browser against a fresh SSIP daemon: the
/// daemon and a `speech` watcher, the tap the browser's libspeechd connects through, and the
/// page's reports.
final class WebSpeechRun {
    static let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("DesktopClients/web-speech.html")

    let browser: WebSpeechBrowser
    let ssip: SSIPDaemon
    let watcher: LineClient
    let session: DesktopSession
    let tap: SSIPWireTap
    private let output: LineCollector

    /// Starts the daemon and opens the page with `scenario` in `browser`.
    init(_ browser: WebSpeechBrowser, scenario: String) throws {
        self.browser = browser
        ssip = try SSIPDaemon()
        watcher = try speechWatcher(ssip.daemon)
        session = try DesktopSession()
        tap = try SSIPWireTap(
            path: session.runtime.appendingPathComponent("ssip-tap.sock").path, upstream: ssip.ssipPath)
        let profile = session.directory.appendingPathComponent("profile")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        let url = Self.page.absoluteString + "?scenario=" + scenario
        let process = try session.start(
            browser.rawValue, try #require(browser.path), try browser.arguments(profile: profile, url: url),
            extra: ["SPEECHD_ADDRESS": "unix_socket:\(tap.path)"], output: .pipe
        )
        output = LineCollector(reading: try #require(process.output))
    }

    deinit {
        session.stop()
        tap.stop()
    }

    /// The page's reports so far ("start first", "error long interrupted", "done"), in order.
    var reports: [String] {
        output.completeLines().compactMap { line in
            guard let marker = line.range(of: "ANNOUNCED-TEST ") else { return nil }
            // Firefox: console.log: "ANNOUNCED-TEST ...", Chromium: "ANNOUNCED-TEST ...", source: ...
            let report = line[marker.upperBound...].prefix { $0 != "\"" }
            return report.trimmingCharacters(in: .whitespaces)
        }
    }

    /// Waits until the page reported `done` (a browser starting a fresh profile on a busy
    /// machine is slow); its reports. Fails the test with the browser's output if it never came.
    func waitForDone(timeout: Double = 240) throws -> [String] {
        let done = output.waitForLine(timeout: timeout) { $0.contains("ANNOUNCED-TEST done") }
        try #require(
            done != nil,
            "the page never reported done; \(browser.rawValue)'s output:\n\(output.currentText().suffix(4000))")
        return reports
    }

    /// The `started` line of the message with `text`, if the watcher has read it.
    func startedLine(_ text: String) -> JSONValue? {
        watcher.received.first {
            $0.event == "speech" && $0["state"] == .string("started") && $0["text"] == .string(text)
        }
    }

    /// The `finished` line of the message that started with `text` (waiting for it).
    func finished(_ text: String) throws -> (seq: Int, line: JSONValue) {
        let started = try #require(
            watcher.waitFor {
                $0.event == "speech" && $0["state"] == .string("started") && $0["text"] == .string(text)
            },
            "\(text) never started: \(watcher.received.map(\.text))"
        )
        #expect(browser.isClientName(started["client"]?.stringValue), "the browser's client name: \(started.text)")
        let seq = Int(try #require(started["seq"]?.integerValue))
        return (seq, try #require(watcher.waitForSpeech("finished", seq: seq)))
    }

    /// The events the browser received about message `id` (once its 702 or 703 has come).
    func wireEvents(_ id: Int) throws -> [String] {
        let connection = try #require(
            tap.waitForConnection { server, _ in server.contains("702-\(id)") || server.contains("703-\(id)") })
        return tap.events(connection, messageID: id)
    }
}

/// The checks of each scenario of the page, the same for every browser.
enum WebSpeechChecks {
    /// Two utterances queued at once: the page sees start and end of each, in order; the daemon
    /// speaks both to their end, one after the other.
    static func speak(_ browser: WebSpeechBrowser) throws {
        let run = try WebSpeechRun(browser, scenario: "speak")
        let reports = try run.waitForDone()
        #expect(reports == ["scenario speak", "start first", "end first", "start second", "end second", "done"])
        let first = try run.finished("The first utterance")
        let second = try run.finished("The second utterance")
        #expect(first.line["success"] == .bool(true) && second.line["success"] == .bool(true))
        #expect(
            run.watcher.speechState("finished \(first.seq)", precedes: "started \(second.seq)"),
            "\(run.watcher.speechStates)")
        #expect(try run.wireEvents(first.seq) == ["701", "702"])
        #expect(try run.wireEvents(second.seq) == ["701", "702"])
    }

    /// `cancel()` once the long utterance has started: it ends (Firefox: end, Chromium: error
    /// interrupted), the one queued behind it never starts, in the page or in the daemon; an
    /// utterance spoken afterwards is heard to its end.
    static func cancel(_ browser: WebSpeechBrowser) throws {
        let run = try WebSpeechRun(browser, scenario: "cancel")
        let reports = try run.waitForDone()
        let longEnd = browser == .firefox ? "end long" : "error long interrupted"
        #expect(reports == ["scenario cancel", "start long", longEnd, "start after", "end after", "done"])
        let long = try run.finished(interruptibleText)
        #expect(
            long.line["success"] == .bool(false) && long.line["reason"] == .string("cancelled"), "\(long.line.text)")
        #expect(try run.wireEvents(long.seq) == ["701", "703"])
        let after = try run.finished("After the cancel")
        #expect(after.line["success"] == .bool(true))
        #expect(
            run.startedLine("Queued behind it and never heard") == nil,
            "the queued utterance never reached the loudspeaker")
    }

    /// `pause()` when the long utterance starts, `resume()` when the page hears of the pause: the
    /// page sees pause, then resume, then end; the daemon paused and resumed that message (704,
    /// 705 on the wire) and spoke it to its end.
    static func pauseAndResume(_ browser: WebSpeechBrowser) throws {
        let run = try WebSpeechRun(browser, scenario: "pause")
        let reports = try run.waitForDone()
        #expect(
            reports == [
                "scenario pause", "start paused", "pause paused", "paused-state paused true", "resume paused",
                "paused-state resumed false", "end paused", "done",
            ])
        let message = try run.finished(interruptibleText)
        #expect(message.line["success"] == .bool(true), "\(message.line.text)")
        #expect(try run.wireEvents(message.seq) == ["701", "704", "705", "702"])
    }

    /// `getVoices()`, once the browser has them: every voice the daemon lists, English and
    /// French among them.
    static func voices(_ browser: WebSpeechBrowser) throws {
        let run = try WebSpeechRun(browser, scenario: "voices")
        let reports = try run.waitForDone()
        let report = try #require(reports.first { $0.hasPrefix("voices ") }, "\(reports)")
        let words = report.split(separator: " ")
        let count = Int(words.count > 1 ? words[1] : "") ?? 0
        let languages = Set((words.count > 2 ? words[2] : "").split(separator: ",").map(String.init))
        let listed = try run.ssip.connectSSIP().command("LIST SYNTHESIS_VOICES")
        #expect(listed?.code == 249)
        #expect(
            count > 0 && count == listed?.data.count,
            "the page has \(count) voices; the daemon lists \(listed?.data.count ?? 0)")
        #expect(languages.contains("en-US") && languages.contains("fr-FR"), "\(languages.sorted())")
    }
}

@Suite(
    "Desktop: Firefox ESR's Web Speech through the daemon's SSIP socket", .daemonTimeLimit, .onBlockingThreads,
    .enabled(if: WebSpeechBrowser.firefox.path != nil, WebSpeechBrowser.firefox.missing)
)
struct DesktopFirefoxTests {
    @Test("speak(): start and end of each utterance, in order") func speak() throws {
        try WebSpeechChecks.speak(.firefox)
    }
    @Test("cancel(): the speaking utterance ends, the queue is emptied") func cancel() throws {
        try WebSpeechChecks.cancel(.firefox)
    }
    @Test("getVoices(): the daemon's voices") func voices() throws { try WebSpeechChecks.voices(.firefox) }

    /// Firefox ESR's speech-dispatcher backend leaves pause out (SpeechDispatcherCallback::OnPause
    /// does nothing: speech-dispatcher used to pause only at an index mark), so the page's pause()
    /// never reaches the daemon. Should a later Firefox send PAUSE, this test fails, and
    /// `WebSpeechChecks.pauseAndResume` is the one to run.
    @Test("pause(): Firefox sends nothing to the server; no pause or resume event, the utterance is spoken to its end")
    func pauseIsNotImplementedByFirefox() throws {
        let run = try WebSpeechRun(.firefox, scenario: "pause")
        let reports = try run.waitForDone()
        #expect(reports == ["scenario pause", "start paused", "end paused", "done"])
        let message = try run.finished(interruptibleText)
        #expect(message.line["success"] == .bool(true))
        #expect(try run.wireEvents(message.seq) == ["701", "702"])
        let connection = try #require(run.tap.waitForConnection { server, _ in server.contains("702-\(message.seq)") })
        #expect(
            !run.tap.clientLines(connection).contains { $0.uppercased().hasPrefix("PAUSE") },
            "\(run.tap.clientLines(connection))")
    }
}

@Suite(
    "Desktop: Chromium's Web Speech through the daemon's SSIP socket", .daemonTimeLimit, .onBlockingThreads,
    .enabled(if: WebSpeechBrowser.chromium.path != nil, WebSpeechBrowser.chromium.missing)
)
struct DesktopChromiumTests {
    @Test("speak(): start and end of each utterance, in order") func speak() throws {
        try WebSpeechChecks.speak(.chromium)
    }
    @Test("cancel(): the speaking utterance ends, the queue is emptied") func cancel() throws {
        try WebSpeechChecks.cancel(.chromium)
    }
    @Test("pause() and resume(): pause, resume and end events; 704 and 705 on the wire") func pause() throws {
        try WebSpeechChecks.pauseAndResume(.chromium)
    }
    @Test("getVoices(): the daemon's voices") func voices() throws { try WebSpeechChecks.voices(.chromium) }
}
