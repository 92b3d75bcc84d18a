// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import Glibc
import TestSupport
import Testing

/// About a minute of speech: a post that is still speaking when the test acts on it.
private let longText = String(repeating: "A long announcement that is still being spoken. ", count: 20)

/// Asks for the history (`extra`: more fields, e.g. `,"limit":2`) and returns its entries.
func historyEntries(_ client: LineClient, id: Int, _ extra: String = "") throws -> [JSONValue] {
    client.send(#"{"op":"history","id":\#(id)\#(extra)}"#)
    let ok = try #require(client.waitFor("ok", id: id), "no answer to history: \(client.lines(id: id))")
    return try #require(ok["history"]?.arrayValue, "\(ok.text)")
}

/// The `seq` of post `id`'s `queued` line.
private func queuedSeq(_ client: LineClient, id: Int) -> JSONValue? {
    client.lines(id: id).first { $0.event == "queued" }?["seq"]
}

@Suite("Daemon: the history of announcements, and announcectl history and repeat", .onBlockingThreads)
struct HistoryTests {
    @Test(
        "every ending is kept, newest first, with seq, time, client, voice, language and spoken_chars; limit takes the newest"
    )
    func endings() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        client.send(#"{"op":"hello","id":0,"client":"mail"}"#)
        client.send(announce(1, "Saved", #","voice":"en-gb""#))
        #expect(client.waitForTerminal(id: 1)?["success"] == .bool(true))
        client.send(announce(2, longText))
        #expect(client.waitFor("started", id: 2) != nil)
        client.send(announce(3, "Next"))
        let interrupted = try #require(client.waitForTerminal(id: 2))
        #expect(interrupted["reason"] == .string("interrupted"))
        #expect(client.waitForTerminal(id: 3)?["success"] == .bool(true))
        client.send(announce(4, longText))
        #expect(client.waitFor("started", id: 4) != nil)
        client.send(#"{"op":"stop","id":5}"#)
        let cancelled = try #require(client.waitForTerminal(id: 4))
        #expect(cancelled["reason"] == .string("cancelled"))
        client.send(
            #"{"op":"set","id":6,"muted":true}"#, announce(7, "Muted one"), #"{"op":"set","id":8,"muted":false}"#)
        #expect(client.waitForTerminal(id: 7)?["reason"] == .string("muted"))
        #expect(client.waitFor("ok", id: 8) != nil)
        client.send(announce(9, "From a worker", #","thread":"worker""#))
        #expect(client.waitForTerminal(id: 9)?["reason"] == .string("off-main"))

        let entries = try historyEntries(client, id: 10)
        let expected: [(id: Int, text: String, success: Bool, reason: String?)] = [
            (9, "From a worker", false, "off-main"), (7, "Muted one", false, "muted"),
            (4, longText, false, "cancelled"), (3, "Next", true, nil), (2, longText, false, "interrupted"),
            (1, "Saved", true, nil),
        ]
        try #require(entries.count == expected.count, "\(entries.map(\.text))")
        for (entry, want) in zip(entries, expected) {
            #expect(entry["text"] == .string(want.text), "\(entry.text)")
            #expect(entry["client"] == .string("mail"))
            #expect(entry["success"] == .bool(want.success), "\(entry.text)")
            #expect(entry["reason"]?.stringValue == want.reason, "\(entry.text)")
            #expect(want.reason == "off-main" ? entry["seq"] == nil : entry["seq"] == queuedSeq(client, id: want.id))
            let time = entry["time"]?.stringValue ?? ""
            #expect(time.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil, "\(time)")
        }
        #expect(entries[0]["drop_reason"] == nil, "the reason is the dropped line's own word")
        // en-gb selects espeak-ng's voice named en (`announcectl voices` lists it so), for English (Great Britain).
        #expect(entries[5]["voice"] == .string("en") && entries[5]["lang"] == .string("en-gb"), "\(entries[5].text)")
        #expect(entries[3]["voice"] == .string("en-us") && entries[3]["lang"] == .string("en-us"))
        #expect(entries[5]["spoken_chars"] == .integer(5) && entries[3]["spoken_chars"] == .integer(4))
        #expect(entries[4]["spoken_chars"] == interrupted["spoken_chars"])
        #expect(entries[2]["spoken_chars"] == cancelled["spoken_chars"])
        #expect(entries[1]["spoken_chars"] == .integer(0))

        #expect(try historyEntries(client, id: 11, #","limit":2"#) == Array(entries.prefix(2)))
        #expect(try historyEntries(client, id: 12, #","limit":100"#) == entries)
        for (id, bad) in [(13, "0"), (14, "\"2\""), (15, "-1")] {
            client.send(#"{"op":"history","id":\#(id),"limit":\#(bad)}"#)
            let error = try #require(client.waitFor("error", id: id))
            #expect(error["code"] == .string("invalid"))
            #expect(error["message"]?.stringValue?.contains("`limit`") == true, "\(error.text)")
        }
        #expect(daemon.stop() == 0)
    }

    @Test("a post whose helper crashes is kept with reason error and its message")
    func errorEnding() throws {
        let (daemon, client, helper) = try EngineCrashTests.speakingLongPost()
        kill(helper, SIGKILL)
        let terminal = try #require(client.waitForTerminal(id: 1))
        #expect(terminal["reason"] == .string("error"))
        let entry = try #require(try historyEntries(client, id: 2).first)
        #expect(entry["reason"] == .string("error"))
        #expect(entry["message"] == terminal["message"])
        #expect(daemon.stop() == 0)
    }

    @Test("a history subscriber gets each entry at the post's terminal line, right after it")
    func subscription() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        client.send(#"{"op":"subscribe","id":1,"events":["history"]}"#)
        #expect(client.waitFor("ok", id: 1) != nil)
        client.send(announce(2, "Build finished"))
        let finished = try #require(client.waitForTerminal(id: 2))
        let event = try #require(client.waitFor { $0.event == "history" })
        let lines = client.received
        let finishedAt = try #require(lines.firstIndex(of: finished))
        #expect(lines.firstIndex(of: event) == finishedAt + 1, "\(lines.map(\.text))")
        #expect(event["entry"]?["text"] == .string("Build finished"))
        #expect(event["entry"]?["seq"] == queuedSeq(client, id: 2))
        #expect(event["entry"]?["spoken_chars"] == .integer(14))
        #expect(try historyEntries(client, id: 3).first == event["entry"])
        #expect(daemon.stop() == 0)
    }

    @Test(
        "history_size bounds what is kept; a reload to a smaller size forgets the oldest; 0 keeps nothing; a long text is cut to 1000 characters"
    )
    func sizeAndTruncation() throws {
        let file = try EditableConfigFile(#"{"history_size": 2}"#)
        let reloadable = try ReloadableDaemon(file)
        let daemon = reloadable.daemon
        let client = try daemon.connect()
        // Muted, each post ends at once; the history keeps it all the same.
        client.send(#"{"op":"set","id":1,"muted":true}"#)
        let long = String(repeating: "é", count: 1500)
        client.send(announce(2, "One"), announce(3, "Two"), announce(4, long))
        #expect(client.waitForTerminal(id: 4)?["reason"] == .string("muted"))
        var entries = try historyEntries(client, id: 5)
        #expect(entries.count == 2)
        #expect(entries.last?["text"] == .string("Two"))
        let cut = try #require(entries.first)
        #expect(cut["text"] == .string(String(repeating: "é", count: 1000)))
        #expect(cut["truncated"] == .bool(true))
        #expect(entries.last?["truncated"] == nil)

        try file.write(#"{"history_size": 1}"#)
        #expect(reloadable.reload())
        entries = try historyEntries(client, id: 6)
        #expect(entries.count == 1 && entries.first?["text"] == cut["text"])

        try file.write(#"{"history_size": 0}"#)
        #expect(reloadable.reload())
        #expect(try historyEntries(client, id: 7).isEmpty)
        client.send(announce(8, "Not kept"))
        #expect(client.waitForTerminal(id: 8) != nil)
        #expect(try historyEntries(client, id: 9).isEmpty)
        #expect(daemon.stop() == 0)
    }

    @Test("SSIP messages are not kept by default, and are with history_ssip on")
    func ssipMessages() throws {
        for kept in [false, true] {
            let file = try EditableConfigFile(#"{"history_ssip": \#(kept)}"#)
            let daemon = try SSIPDaemon(arguments: ["--config", file.path])
            let watcher = try daemon.daemon.connect()
            watcher.send(#"{"op":"subscribe","id":1,"events":["speech","history"]}"#)
            #expect(watcher.waitFor("ok", id: 1) != nil)
            let ssip = try daemon.connectSSIP()
            #expect(ssip.command("SET self CLIENT_NAME joe:orca:main")?.code == 208)
            let messageID = try #require(ssip.speak("Hello from Orca").messageID)
            let finished = try #require(watcher.waitForSpeech("finished", seq: messageID))
            let entries = try historyEntries(watcher, id: 2)
            if kept {
                let entry = try #require(entries.first, "history_ssip on keeps the message")
                #expect(entry["text"] == .string("Hello from Orca"))
                #expect(entry["client"] == finished["client"])
                #expect(entry["seq"] == .integer(Int64(messageID)))
                #expect(watcher.received.contains { $0.event == "history" })
            } else {
                #expect(entries.isEmpty, "\(entries.map(\.text))")
                #expect(!watcher.received.contains { $0.event == "history" })
            }
            #expect(daemon.daemon.stop() == 0)
        }
    }

    @Test(
        "announcectl history lists time, client, ending and text (--json, -n); repeat speaks the entry again in its voice, heard in the audio"
    )
    func announcectlHistoryAndRepeat() throws {
        let daemon = try DaemonProcess()
        let socket = ["--socket", daemon.socketPath]
        var result = try AnnouncectlProcess.run(socket + ["repeat"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("nothing to repeat: the history is empty"), "\(result)")

        let client = try daemon.connect()
        client.send(#"{"op":"hello","id":0,"client":"builder"}"#)
        client.send(announce(1, "Build finished", #","voice":"en-gb""#))
        #expect(client.waitForTerminal(id: 1)?["success"] == .bool(true))
        client.send(announce(2, "Tests passed", #","queue":true"#))
        #expect(client.waitForTerminal(id: 2)?["success"] == .bool(true))

        result = try AnnouncectlProcess.run(socket + ["history"])
        let rows = result.stdout.split(separator: "\n").map(String.init)
        #expect(result.status == 0 && rows.count == 2, "\(result)")
        #expect(rows.first?.hasSuffix(#"  builder  spoken  "Tests passed""#) == true, "\(rows)")
        #expect(rows.last?.hasSuffix(#"  builder  spoken  "Build finished""#) == true, "\(rows)")
        result = try AnnouncectlProcess.run(socket + ["history", "--json", "-n", "1"])
        let line = try JSONParser.parse(Array(result.stdout.utf8.dropLast()))
        #expect(line["text"] == .string("Tests passed") && line["client"] == .string("builder"), "\(result)")
        #expect(try AnnouncectlProcess.run(socket + ["history", "-n", "0"]).status == 2)

        result = try AnnouncectlProcess.run(socket + ["repeat", "3"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("only 2 announcements in the history; give N from 1 to 2"), "\(result)")
        result = try AnnouncectlProcess.run(socket + ["repeat", "2", "--wait"])
        #expect(result.status == 0 && result.stdout == "spoken\n", "\(result)")

        let newest = try #require(try historyEntries(client, id: 3).first)
        #expect(newest["client"] == .string("announcectl"))
        #expect(newest["text"] == .string("Build finished"))
        #expect(newest["voice"] == .string("en") && newest["lang"] == .string("en-gb"))
        let repeatSeq = try #require(newest["seq"]?.integerValue)
        let firstSeq = try #require(queuedSeq(client, id: 1)?.integerValue)
        // The same text in the same voice: the repeat's audio is as long as the first post's, and
        // not as long as the default voice (en-us) saying it.
        let original = WAVFile.trimmed(try daemon.wavSamples(seq: Int(firstSeq)))
        let repeated = WAVFile.trimmed(try daemon.wavSamples(seq: Int(repeatSeq)))
        let american = WAVFile.trimmed(try espeakReference(text: "Build finished", voice: "en-us", rate: 175))
        print("Build finished: \(original.count) samples; repeated: \(repeated.count); in en-us: \(american.count)")
        #expect(original.count > 10_000 && abs(repeated.count - original.count) <= original.count / 100)
        #expect(abs(american.count - original.count) > original.count / 100, "en-us and en-gb sound alike here")
        #expect(daemon.stop() == 0)
    }
}
