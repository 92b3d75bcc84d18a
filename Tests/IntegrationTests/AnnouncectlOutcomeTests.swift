// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import TestSupport
import Testing

@Suite("announcectl: honest outcomes, warnings and the spd-say options", .daemonTimeLimit, .onBlockingThreads)
struct AnnouncectlOutcomeTests {
    @Test(
        "--wait with nothing to speak prints `nothing to speak` and exits 3, not `spoken` and 0",
        arguments: [["focus", "--id", "x"], ["screen-changed"], ["layout-changed"]])
    func nothingToSpeak(command: [String]) throws {
        let daemon = try DaemonProcess()
        let result = try AnnouncectlProcess.run(["--socket", daemon.socketPath] + command + ["--wait"])
        #expect(result.stdout == "nothing to speak\n")
        #expect(result.status == 3)
    }

    @Test("say without --wait while muted: a warning on stderr and exit 3; queued and unmuted: silent, exit 0")
    func mutedWithoutWait() throws {
        let daemon = try DaemonProcess()
        #expect(try announcectl(daemon, "mute").status == 0)
        let muted = try announcectl(daemon, "say", "Nobody hears this")
        #expect(muted.status == 3)
        #expect(muted.stderr.contains("muted"), "\(muted.stderr)")
        #expect(try announcectl(daemon, "unmute").status == 0)
        let queued = try announcectl(daemon, "say", "Heard")
        #expect(queued.status == 0)
        #expect(queued.stderr.isEmpty && queued.stdout.isEmpty)
    }

    @Test("a language without a voice: a warning on stderr, and --wait names the voice that spoke")
    func languageFallback() throws {
        let daemon = try DaemonProcess()
        let result = try announcectl(daemon, "say", "--wait", "--lang", "xx", "Hello")
        #expect(result.status == 0)
        #expect(result.stderr.contains("\"xx\""), "\(result.stderr)")
        #expect(result.stdout == "spoken (voice en-us)\n")
        let matched = try announcectl(daemon, "say", "--wait", "--lang", "fr", "Bonjour")
        #expect(matched.stdout == "spoken\n" && matched.stderr.isEmpty, "\(matched)")
    }

    @Test("status shows what is speaking and whose it is")
    func statusShowsSpeech() throws {
        let daemon = try DaemonProcess()
        let watcher = try speechWatcher(daemon)
        let long = try AnnouncectlProcess(["--socket", daemon.socketPath, "say", "--wait", interruptibleText])
        try #require(watcher.waitFor { $0["state"] == .string("started") } != nil)
        let status = try announcectl(daemon, "status")
        #expect(status.stdout.contains("speaking     announcectl: \"\(interruptibleText)\""), "\(status.stdout)")
        let json = try announcectl(daemon, "status", "--json")
        let report = try StatusReport(
            try #require(try JSONParser.parse(json.stdout.trimmingCharacters(in: .newlines)).objectValue))
        #expect(report.speakingText == interruptibleText)
        #expect(report.speakingClient == "announcectl")
        _ = try announcectl(daemon, "stop")
        #expect(long.finish().status == 3)
    }

    @Test("set applies pitch, volume and punctuation: status reports them and the next post sounds different")
    func setAppliesEverything() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        client.send(announce(1, "Yes, no."))
        try #require(client.waitForTerminal(id: 1)?["success"] == .bool(true))
        #expect(try announcectl(daemon, "set", "--punctuation", "all", "--pitch", "70", "--volume", "150").status == 0)
        let report = try StatusReport(try #require(try statusReply(client, id: 2).objectValue))
        #expect(report.punctuation == .all && report.pitch == 70 && report.volume == 150)
        client.send(announce(3, "Yes, no."))
        try #require(client.waitForTerminal(id: 3)?["success"] == .bool(true))
        let plain = WAVFile.trimmed(try daemon.wavSamples(seq: 1)).count
        let spokenPunctuation = WAVFile.trimmed(try daemon.wavSamples(seq: 2)).count
        print("\"Yes, no.\": \(plain) samples plain, \(spokenPunctuation) with punctuation all")
        // "Yes comma no period" takes clearly longer than "Yes, no.".
        #expect(Double(spokenPunctuation) > Double(plain) * 1.2)
        let refused = try daemon.connect()
        refused.send(#"{"op":"set","id":1,"punctuation":"most"}"#)
        #expect(refused.waitFor("error", id: 1)?["message"]?.stringValue?.contains("punctuation") == true)
    }

    @Test("say --wait --words prints each word as it is heard, then the outcome")
    func words() throws {
        let daemon = try DaemonProcess()
        let result = try announcectl(daemon, "say", "--wait", "--words", "one two three")
        #expect(result.status == 0)
        #expect(result.stdout == "word: one\nword: two\nword: three\nspoken\n")
    }

    @Test("say --json --id prints the daemon's terminal line under the id given; cancel ID cancels it from another run")
    func jsonIDAndCancel() throws {
        let daemon = try DaemonProcess()
        let said = try announcectl(daemon, "say", "--wait", "--json", "--id", "greeting", "Hi")
        let line = try JSONParser.parse(said.stdout.trimmingCharacters(in: .newlines))
        #expect(
            line["event"] == .string("finished") && line["id"] == .string("greeting") && line["success"] == .bool(true),
            "\(said.stdout)")

        let watcher = try speechWatcher(daemon)
        #expect(try announcectl(daemon, "say", "--id", "long", interruptibleText).status == 0)
        try #require(watcher.waitFor { $0["state"] == .string("started") }?["client"] == .string("announcectl"))
        let other = try daemon.connect()
        other.send(
            #"{"op":"hello","id":1,"client":"mail"}"#,
            announce(2, "Mail's own post", #","queue":true,"priority":"low""#))
        try #require(other.waitFor("queued", id: 2) != nil)
        let cancelled = try announcectl(daemon, "cancel", "long")
        #expect(cancelled.status == 0 && cancelled.stdout == "cancelled 1 post\n", "\(cancelled)")
        #expect(
            watcher.waitFor { $0["state"] == .string("finished") && $0["client"] == .string("announcectl") }?["reason"]
                == .string("cancelled"))
        // Another client's post is not announcectl's to cancel; it speaks.
        #expect(other.waitForTerminal(id: 2)?["success"] == .bool(true))
        let none = try announcectl(daemon, "cancel")
        #expect(none.status == 1 && none.stderr.contains("no post"), "\(none)")
    }

    @Test("voices lists name, language and gender from the daemon; --lang narrows it; an unknown language is an error")
    func voices() throws {
        let daemon = try DaemonProcess()
        let all = try announcectl(daemon, "voices")
        #expect(all.status == 0)
        let lines = all.stdout.split(separator: "\n")
        #expect(lines.count == (try EspeakVoiceEntry.all()).count)
        #expect(lines.contains { $0.hasPrefix("en ") && $0.contains("en-gb") && $0.contains("male") }, "\(all.stdout)")
        let portuguese = try announcectl(daemon, "voices", "--lang", "pt")
        #expect(
            portuguese.stdout.split(separator: "\n").map { String($0.split(separator: " ")[0]) } == ["pt", "pt-br"])
        let sample = try announcectl(daemon, "voices", "--lang", "pt-br", "--sample")
        #expect(sample.status == 0)
        #expect(sample.stdout.hasSuffix("spoken\n"), "\(sample.stdout)")
        let none = try announcectl(daemon, "voices", "--lang", "xx")
        #expect(none.status == 1)
        let client = try daemon.connect()
        client.send(#"{"op":"voices","id":1,"lang":"en-gb"}"#)
        let answer = try #require(client.waitFor("ok", id: 1))
        let names = answer["voices"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        #expect(names.contains("en") && !names.contains("de"), "\(names)")
    }

    @Test(
        "the command line catches its own mistakes: exit 2",
        arguments: [
            [], ["say", "-", "extra"], ["say", "--lang", "1", "Hi"], ["say", "--words", "Hi"],
            ["say", "--pitch", "101", "Hi"],
            ["say", "--punctuation", "most", "Hi"], ["set", "--punctuation", "most"], ["voices", "--lang", "1"],
            ["say", "--sample"],
        ])
    func usageErrors(arguments: [String]) throws {
        let result = try AnnouncectlProcess.run(["--socket", "/nonexistent/announced.sock"] + arguments)
        #expect(result.status == 2, "\(arguments): \(result)")
        #expect(result.stderr.contains("Error:"), "\(arguments): \(result.stderr)")
    }

    @Test("cancel --help and voices --help print their own help; focus --help says the focus ends with announcectl")
    func subcommandHelp() throws {
        let cancel = try AnnouncectlProcess.run(["cancel", "--help"])
        #expect(cancel.status == 0 && cancel.stdout.contains("USAGE: announcectl cancel"), "\(cancel.stdout)")
        let voices = try AnnouncectlProcess.run(["voices", "--help"])
        #expect(voices.status == 0 && voices.stdout.contains("USAGE: announcectl voices"), "\(voices.stdout)")
        let focus = try AnnouncectlProcess.run(["focus", "--help"])
        #expect(focus.stdout.contains("disappears"), "\(focus.stdout)")
    }
}
