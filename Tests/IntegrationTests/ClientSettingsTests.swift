// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import Glibc
import TestSupport
import Testing

/// `status`'s `client_settings`: each connected client's name and the pattern it matched.
private func clientSettings(_ client: LineClient, id: Int) throws -> [String: JSONValue] {
    let status = try statusReply(client, id: id)
    let list = try #require(status["client_settings"]?.arrayValue, "\(status.text)")
    var matched: [String: JSONValue] = [:]
    for entry in list {
        matched[try #require(entry["name"]?.stringValue)] = entry["matched"] ?? .null
    }
    return matched
}

/// Issue 39 §2: settings per client (`clients`), matched against each front door's client name,
/// through the real daemon. What each client heard is compared with a fresh daemon's rendering of
/// the same text with the settings it should have had.
@Suite("Settings per client: the clients entries", .onBlockingThreads, .serialized)
struct ClientSettingsTests {
    private let text = "Your meeting starts in five minutes."
    private static let entryFields = #","rate":300,"volume":60"#

    @Test(
        "python3-speechd as Orca (CLIENT_NAME unknown:Orca:default) matches *:Orca:*: the entry's rate and volume, its own SET RATE over them, re-matched on SIGHUP, and mute"
    )
    func speechdClients() throws {
        let defaults = try firstPostRendering(text, configuration: "{}")
        let entry = try firstPostRendering(text, configuration: "{}", fields: Self.entryFields)
        let ownRate = try firstPostRendering(text, configuration: "{}", fields: #","rate":80,"volume":60"#)
        let reloaded = try firstPostRendering(text, configuration: "{}", fields: #","rate":120"#)

        let file = try EditableConfigFile(
            #"{"clients": [{"match": "*:Orca:*", "rate": 300, "volume": 60}, {"match": "*:quiet:*", "mute": true}]}"#)
        let ssip = try SSIPDaemon(arguments: ["--config", file.path])
        let speechd = try SpeechdDriver(ssip)
        // Orca's own form of the name: SSIPClient("Orca", "default", "unknown"), as Orca sends it without USER.
        try speechd.connect("orca", application: "Orca", component: "default", user: "unknown")
        try speechd.connect("other")
        try speechd.connect("quiet", application: "quiet")
        let native = try ssip.daemon.connect()
        let matched = try clientSettings(native, id: 1)
        #expect(matched["unknown:Orca:default"] == .string("*:Orca:*"), "\(matched)")
        #expect(matched["unknown:pytest-other:default"] == .null, "\(matched)")
        #expect(matched["unknown:quiet:default"] == .string("*:quiet:*"), "\(matched)")

        // The entry over the defaults.
        var id = try speechd.speak(text, client: "orca", tag: "entry")
        #expect(speechd.waitForTerminalCallback(tag: "entry", client: "orca") == "end")
        #expect(soundsLike(try ssip.daemon.wavSamples(seq: id), entry, not: defaults), "Orca with its entry")
        // A client no entry matches: the defaults.
        id = try speechd.speak(text, client: "other", tag: "plain")
        #expect(speechd.waitForTerminalCallback(tag: "plain", client: "other") == "end")
        #expect(soundsLike(try ssip.daemon.wavSamples(seq: id), defaults, not: entry), "the other client")
        // The client's own SET over the entry: RATE -100 is the slowest rate; the entry's volume stays.
        try speechd.call("set_rate", client: "orca", .integer(-100))
        id = try speechd.speak(text, client: "orca", tag: "own")
        #expect(speechd.waitForTerminalCallback(tag: "own", client: "orca") == "end")
        #expect(soundsLike(try ssip.daemon.wavSamples(seq: id), ownRate, not: entry), "Orca after SET RATE -100")
        try speechd.call("set_rate", client: "orca", .integer(0))
        // mute: the message is cancelled, never spoken.
        _ = try speechd.speak(text, client: "quiet", tag: "muted")
        #expect(speechd.waitForTerminalCallback(tag: "muted", client: "quiet") == "cancel")

        // SIGHUP: connected clients are matched again; Orca's entry now has rate 120.
        try file.write(#"{"clients": [{"match": "*:orca:*", "rate": 120}]}"#)
        kill(ssip.daemon.process.processIdentifier, SIGHUP)
        #expect(ssip.daemon.waitForStderr(containing: "SIGHUP: settings reloaded", timeout: 30))
        let rematched = try clientSettings(native, id: 2)
        #expect(rematched["unknown:Orca:default"] == .string("*:orca:*"), "\(rematched)")
        #expect(rematched["unknown:quiet:default"] == .null, "\(rematched)")
        id = try speechd.speak(text, client: "orca", tag: "reloaded")
        #expect(speechd.waitForTerminalCallback(tag: "reloaded", client: "orca") == "end")
        #expect(soundsLike(try ssip.daemon.wavSamples(seq: id), reloaded, not: entry), "Orca after the reload")
        id = try speechd.speak(text, client: "quiet", tag: "unmuted")
        #expect(speechd.waitForTerminalCallback(tag: "unmuted", client: "quiet") == "end")
        #expect(ssip.daemon.stop() == 0)
    }

    @Test(
        "the native protocol's hello name: the entry over the defaults, the post's own rate over the entry, pid:N matched without hello (muted)"
    )
    func nativeClients() throws {
        let entry = try firstPostRendering(text, configuration: "{}", fields: Self.entryFields)
        let defaults = try firstPostRendering(text, configuration: "{}")
        let ownRate = try firstPostRendering(text, configuration: "{}", fields: #","rate":80,"volume":60"#)
        let file = try EditableConfigFile(
            #"{"clients": [{"match": "MAIL", "rate": 300, "volume": 60}, {"match": "pid:*", "mute": true}]}"#)
        let daemon = try DaemonProcess(arguments: ["--config", file.path])
        let mail = try daemon.connect()
        mail.send(#"{"op":"hello","id":1,"client":"mail"}"#)
        #expect(mail.waitFor("ok", id: 1) != nil)
        let anonymous = try daemon.connect()
        let matched = try clientSettings(anonymous, id: 1)
        #expect(matched["mail"] == .string("MAIL"), "\(matched)")
        #expect(matched.first { $0.key.hasPrefix("pid:") }?.value == .string("pid:*"), "\(matched)")

        // The daemon's first post: sample for sample the entry's rendering.
        mail.send(announce(2, text))
        var finished = try #require(mail.waitForTerminal(id: 2))
        #expect(finished["success"] == .bool(true), "\(finished.text)")
        let heard = try daemon.wavSamples(seq: try #require(finished["seq"]?.intValue))
        #expect(heard == entry, "\(heard.count) samples, \(entry.count) with the entry's settings")
        // What the post asks wins over the entry.
        mail.send(announce(3, text, #","rate":80"#))
        finished = try #require(mail.waitForTerminal(id: 3))
        #expect(
            soundsLike(try daemon.wavSamples(seq: try #require(finished["seq"]?.intValue)), ownRate, not: entry),
            "the post's own rate")
        #expect(!soundsLike(heard, defaults, not: entry))
        // The unnamed connection is pid:N, which the second entry mutes.
        anonymous.send(announce(2, text))
        let muted = try #require(anonymous.waitForTerminal(id: 2))
        #expect(muted["reason"] == .string("muted"), "\(muted.text)")
        #expect(daemon.stop() == 0)
    }

    @Test(
        "a Spiel caller as spiel:<process> (python3's Gio): the entry's rate and volume at Spiel's 1.0, the request's own voice over the entry's, mute after SIGHUP, the defaults once no entry matches",
        .enabled(
            if: SpielClient.isAvailable,
            "needs a session bus and python3-gi for the Spiel door (apt-get install dbus-daemon python3-gi)")
    )
    func spielClients() throws {
        let entry = try firstPostRendering(text, configuration: "{}", fields: Self.entryFields)
        let defaults = try firstPostRendering(text, configuration: "{}")
        let file = try EditableConfigFile(
            #"{"clients": [{"match": "spiel:PYTHON3", "voice": "de", "rate": 300, "volume": 60}]}"#)
        let session = try DesktopSession()
        try session.startSessionBus()
        let daemon = try DaemonProcess(
            arguments: ["--config", file.path],
            environment: ["DBUS_SESSION_BUS_ADDRESS": try #require(session.busAddress)])
        #expect(daemon.waitForStderr(containing: "Spiel speech provider on the session bus", timeout: 20))
        let spiel = SpielClient(session: session)

        // The request names its voice (en-us), which wins over the entry's (de); the entry's rate and
        // volume are what Spiel's 1.0 stands for.
        let heard = try spiel.stream(voice: "en-us", text: text).samples
        #expect(soundsLike(heard, entry, not: defaults), "the Spiel caller with its entry")

        // SIGHUP: the caller is matched again at its next request; now it is muted.
        try file.write(#"{"clients": [{"match": "spiel:*", "mute": true}]}"#)
        kill(daemon.process.processIdentifier, SIGHUP)
        #expect(daemon.waitForStderr(containing: "SIGHUP: settings reloaded", timeout: 30))
        let muted = try spiel.stream(voice: "en-us", text: text)
        #expect(muted.summary["header"]?.stringValue == "0.01", "\(muted.summary.text)")
        #expect(muted.samples.count == 0, "a muted caller's stream has no audio: \(muted.samples.count) samples")

        // No entry matches another name: the defaults.
        try file.write(#"{"clients": [{"match": "spiel:orca", "mute": true}]}"#)
        kill(daemon.process.processIdentifier, SIGHUP)
        #expect(daemon.waitForStderr(containing: "SIGHUP: settings reloaded", count: 2, timeout: 30))
        let plain = try spiel.stream(voice: "en-us", text: text).samples
        #expect(soundsLike(plain, defaults, not: entry), "the Spiel caller no entry matches")
        #expect(daemon.stop() == 0)
    }

    @Test(
        "a toolkit announcement as atspi:<app>: the entry's settings, another app's mute, and a third app with the defaults",
        .enabled(if: ToolkitDesktop.isInstalled, ToolkitDesktop.missing)
    )
    func toolkitClients() throws {
        let announcement = "Download complete"
        let entry = try firstPostRendering(announcement, configuration: "{}", fields: Self.entryFields)
        let defaults = try firstPostRendering(announcement, configuration: "{}")
        let file = try EditableConfigFile(
            #"{"clients": [{"match": "atspi:loud*", "rate": 300, "volume": 60}, {"match": "atspi:muted", "mute": true}]}"#
        )
        let desktop = try ToolkitDesktop(
            environment: ["ANNOUNCED_TOOLKIT_ANNOUNCEMENTS": "on"], arguments: ["--config", file.path])
        try desktop.startApp("loudapp")
        try desktop.startApp("muted")
        try desktop.startApp("plain")

        try desktop.announce(announcement, app: "loudapp")
        let started = try #require(desktop.started(announcement), "\(desktop.watcher.received)")
        #expect(started["client"] == .string("atspi:loudapp"))
        let seq = try #require(started["seq"]?.integerValue)
        #expect(desktop.finished(seq: seq)?["success"] == .bool(true))
        let heard = try desktop.daemon.wavSamples(seq: Int(seq))
        #expect(heard == entry, "\(heard.count) samples, \(entry.count) with the entry's settings")
        let matched = try clientSettings(desktop.watcher, id: 90)
        #expect(matched["atspi:loudapp"] == .string("atspi:loud*"), "\(matched)")

        try desktop.announce("Muted app", app: "muted")
        let mutedEnd = try #require(
            desktop.watcher.waitFor {
                $0.event == "speech" && $0["state"] == .string("finished") && $0["client"] == .string("atspi:muted")
            })
        #expect(mutedEnd["reason"] == .string("muted"), "\(mutedEnd.text)")

        try desktop.announce(announcement, app: "plain")
        let plain = try #require(
            desktop.watcher.waitFor {
                $0.event == "speech" && $0["state"] == .string("started") && $0["client"] == .string("atspi:plain")
            })
        let plainSeq = try #require(plain["seq"]?.integerValue)
        #expect(desktop.finished(seq: plainSeq)?["success"] == .bool(true))
        #expect(
            soundsLike(try desktop.daemon.wavSamples(seq: Int(plainSeq)), defaults, not: entry),
            "the app no entry matches")
    }
}
