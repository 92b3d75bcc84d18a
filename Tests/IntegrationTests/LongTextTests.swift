// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import TestSupport
import Testing

/// Samples above the recorder's audibility threshold.
private func audibleCount(_ samples: [Int16]) -> Int {
    samples.count { abs(Int($0)) > 64 }
}

/// Texts of any length up to `max_text_chars` (1,048,576) on both sockets: accepted, started from
/// their start at once, stopped where they are. Every test interrupts its text after its first
/// seconds instead of listening to it whole.
@Suite("Long texts: a chapter is spoken from its start at once, on both sockets", .daemonTimeLimit, .onBlockingThreads)
struct LongTextTests {
    @Test(
        "a native announce of 1,048,576 characters is queued, starts, repeats its text in started, and stops where it was"
    )
    func nativeMebibyte() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        let text = LongText.plain(count: 1_048_576)
        client.send(announce(1, text, #","words":true"#))
        let queued = try #require(
            client.waitFor("queued", id: 1, timeout: 60), "\(client.received.map(\.text).joined().prefix(500))")
        let started = try #require(
            client.waitFor("started", id: 1, timeout: 60), "the daemon closed the connection: \(client.sawEOF)")
        #expect(started["seq"] == queued["seq"])
        #expect(started["text"]?.stringValue == text, "started repeats the whole text")
        try #require(
            client.waitFor(timeout: 30) {
                $0.event == "word" && $0["id"] == .integer(1) && ($0["offset"]?.integerValue ?? 0) > 100
            } != nil)
        client.send(#"{"op":"stop","id":2}"#)
        let finished = try #require(client.waitForTerminal(id: 1))
        #expect(finished["reason"] == .string("cancelled"), "\(finished.text)")
        let spoken = Int(finished["spoken_chars"]?.integerValue ?? 0)
        #expect(spoken > 100 && spoken < 10_000, "spoken_chars \(spoken): where the first seconds of speech end")
        let words = client.lines(id: 1).filter { $0.event == "word" }.compactMap { $0["offset"]?.integerValue }
        #expect(words == words.sorted() && Int(words.last ?? -1) == spoken)
        let seq = Int(try #require(queued["seq"]?.integerValue))
        #expect(audibleCount(try daemon.wavSamples(seq: seq)) > 22_050 / 2, "the first seconds were played")
    }

    @Test(
        "a 300,000-character text: queued, started and its audio; pause and resume hold and continue it; stop ends it cancelled"
    )
    func pauseInsideALongText() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        let text = LongText.plain(count: 300_000)
        client.send(announce(1, text, #","words":true,"rate":300"#))
        try #require(
            client.waitFor(timeout: 30) {
                $0.event == "word" && $0["id"] == .integer(1) && ($0["offset"]?.integerValue ?? 0) > 40
            } != nil)
        client.send(#"{"op":"pause","id":2}"#)
        try #require(client.waitFor("paused", id: 1) != nil)
        let offsetAtPause = client.lines(id: 1).filter { $0.event == "word" }.last?["offset"]?.integerValue ?? 0
        client.send(#"{"op":"resume","id":3}"#)
        try #require(client.waitFor("resumed", id: 1) != nil)
        // Words after the resume go on from where the pause held it.
        let after = try #require(
            client.waitFor(timeout: 30) {
                $0.event == "word" && $0["id"] == .integer(1) && ($0["offset"]?.integerValue ?? 0) > offsetAtPause
            },
            "speech goes on from where it was paused"
        )
        let events = client.lines(id: 1).compactMap(\.event)
        let resumedIndex = try #require(events.firstIndex(of: "resumed"))
        #expect(
            events[(try #require(events.firstIndex(of: "paused")))..<resumedIndex] == ["paused"], "no word while paused"
        )
        #expect(client.lines(id: 1).firstIndex { $0 == after }.map { $0 > resumedIndex } == true)
        client.send(#"{"op":"stop","id":4}"#)
        let finished = try #require(client.waitForTerminal(id: 1))
        #expect(finished["reason"] == .string("cancelled"), "\(finished.text)")
        #expect(
            client.lines(id: 1).compactMap(\.event).filter { $0 != "word" } == [
                "queued", "started", "paused", "resumed", "finished",
            ])
        let seq = Int(try #require(client.lines(id: 1).first?["seq"]?.integerValue))
        #expect(audibleCount(try daemon.wavSamples(seq: seq)) > 22_050 / 2)
    }

    @Test(
        "SSML with a mark before every sentence of a 300,000-character text: the marks arrive in order, each between the words around it"
    )
    func marksAcrossALongText() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        let (text, marks) = LongText.ssml(minimumCount: 300_000)
        client.send(announce(1, text, #","ssml":true,"words":true,"rate":450"#))
        try #require(
            client.waitFor(timeout: 30) { $0.event == "mark" && $0["id"] == .integer(1) && $0["name"] == .string("s6") }
                != nil)
        client.send(#"{"op":"stop","id":2}"#)
        let finished = try #require(client.waitForTerminal(id: 1))
        #expect(finished["reason"] == .string("cancelled"))

        let lines = client.lines(id: 1).filter { $0.event == "word" || $0.event == "mark" }
        let names = lines.filter { $0.event == "mark" }.compactMap { $0["name"]?.stringValue }
        #expect(names.count >= 7 && names.count < marks.count)
        #expect(names == marks.prefix(names.count).map(\.name), "every mark, in order: \(names)")
        let offsets = Dictionary(uniqueKeysWithValues: marks.map { ($0.name, $0.offset) })
        for (index, line) in lines.enumerated() where line.event == "mark" {
            let name = line["name"]?.stringValue ?? ""
            let mark = try #require(offsets[name])
            let before = lines[..<index].last { $0.event == "word" }?["offset"]?.integerValue
            let after = lines[(index + 1)...].first { $0.event == "word" }?["offset"]?.integerValue
            if let before { #expect(Int(before) < mark, "\(name) comes after the word before it") }
            if let after { #expect(Int(after) > mark, "\(name) comes before the word after it") }
        }
    }

    @Test(
        "word offsets count in the whole text: words after 1,000,000 characters of white space are at 1,000,000 and on")
    func offsetsPastAMillion() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        let text = String(repeating: " ", count: 1_000_000) + "hello world again"
        client.send(announce(1, text, #","words":true"#))
        let finished = try #require(client.waitForTerminal(id: 1, timeout: 60))
        #expect(finished["success"] == .bool(true), "\(finished.text)")
        let words = client.lines(id: 1).filter { $0.event == "word" }.compactMap { $0["offset"]?.integerValue }
        #expect(words == [1_000_000, 1_000_006, 1_000_012])
        let seq = Int(try #require(finished["seq"]?.integerValue))
        #expect(audibleCount(try daemon.wavSamples(seq: seq)) > 22_050 / 4)
    }

    @Test("over the limit on both sockets: text-too-long and 420, each saying what to do; both connections go on")
    func overTheLimit() throws {
        let ssip = try SSIPDaemon()
        let client = try ssip.daemon.connect()
        let over = LongText.plain(count: 1_048_577)
        client.send(announce(1, over))
        let error = try #require(client.waitForTerminal(id: 1))
        #expect(error.event == "error" && error["code"] == .string("text-too-long"), "\(error.text.prefix(300))")
        let message = error["message"]?.stringValue ?? ""
        #expect(message.contains("1048577 characters") && message.contains("1048576"), "\(message)")
        #expect(message.contains("queue: true") && message.contains("max_text_chars"), "\(message)")
        client.send(#"{"op":"status","id":2}"#)
        #expect(client.waitFor("ok", id: 2) != nil)

        let raw = try ssip.connectSSIP()
        let refused = raw.speak(over, timeout: 60)
        #expect(refused.receiving?.code == 230)
        #expect(refused.queued?.code == 420, "\(refused.queued?.description.prefix(300) ?? "no reply")")
        #expect(refused.queued?.text.contains("THE LIMIT IS 1048576") == true)
        #expect(refused.queued?.text.contains("SPLIT IT INTO SEVERAL MESSAGES") == true)
        #expect(raw.command("GET RATE")?.code == 251)
    }
}

@Suite("Long texts from speech-dispatcher's own clients", .daemonTimeLimit, .onBlockingThreads)
struct LongSSIPTextTests {
    @Test(
        "libspeechd: one spd_say of 11,435 characters (speech-dispatcher's own test) begins, stops on spd_stop, and the next message speaks",
        .enabled(
            if: LibspeechdProgram.canBuild, "needs cc, pkg-config and libspeechd-dev (apt-get install libspeechd-dev)")
    )
    func libspeechdLongMessage() throws {
        let ssip = try SSIPDaemon()
        let watcher = try speechWatcher(ssip.daemon)
        let program = try LibspeechdProgram.build(in: ssip.daemon.directory, "libspeechd_long_message")
        let client = try SSIPClientProcess.start(program, [], daemon: ssip)
        // The program stops its message when told to: once half a second of it was played.
        let started = try #require(
            watcher.waitFor(timeout: 30) { $0.event == "speech" && $0["state"] == .string("started") })
        let long = Int(try #require(started["seq"]?.integerValue))
        try #require(ssip.daemon.waitForAudio(seq: long, samples: 22_050 / 2), "the long message is not being played")
        client.finishInput("stop\n")
        let result = client.finish(timeout: 120)
        #expect(result.status == 0, "the program failed; it printed:\n\(result.stdout)\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "LENGTH 11435")
        #expect(lines.contains("SAID long \(long)"))
        let short = try #require(lines.first { $0.hasPrefix("SAID short ") }.flatMap { Int($0.dropFirst(11)) })
        #expect(
            lines.filter { $0.hasSuffix(" \(long)") && $0.hasPrefix("EVENT") } == [
                "EVENT BEGIN \(long)", "EVENT CANCEL \(long)",
            ])
        #expect(
            lines.filter { $0.hasSuffix(" \(short)") && $0.hasPrefix("EVENT") } == [
                "EVENT BEGIN \(short)", "EVENT END \(short)",
            ])
        #expect(lines.last == "CLOSED")

        #expect(started["text"]?.stringValue?.unicodeScalars.count == 11_435)
        let heard = try ssip.daemon.wavSamples(seq: long)
        #expect(audibleCount(heard) > 22_050 / 4, "the long message was heard until it was stopped")
        #expect(heard.count < 22_050 * 30, "and not to its end: \(heard.count) samples")
    }

    @Test(
        "spd-say -e reading 200 KB from stdin: each of its 16 KiB messages is queued, the first speaks; stopping ends them all",
        .enabled(if: SSIPClientProcess.spdSay != nil, SSIPClientProcess.spdSayMissing))
    func spdSayPipesALongFile() throws {
        let ssip = try SSIPDaemon()
        let watcher = try speechWatcher(ssip.daemon)
        let file = LongText.plain(count: 200_000)
        let tool = try SSIPClientProcess.start(try #require(SSIPClientProcess.spdSay), ["-e"], daemon: ssip)
        tool.finishInput(file)
        let result = tool.finish(timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.trimmingCharacters(in: .newlines) == file, "spd-say -e copies its input to its output")

        // spd-say -e sends what each fgets reads, at most 16,383 bytes, as one message.
        let messages = (file.utf8.count + 16_382) / 16_383
        let started = try #require(
            watcher.waitFor(timeout: 30) { $0.event == "speech" && $0["state"] == .string("started") })
        let first = try #require(started["text"]?.stringValue)
        #expect(first.utf8.count > 8_192, "a message longer than the old limit speaks: \(first.utf8.count) bytes")
        #expect(file.hasPrefix(first))
        // `started` says the first audio reached the output, and espeak-ng's audio begins with silence:
        // the stop waits until half a second of the message was played, so what was heard is in its file.
        let seq = Int(try #require(started["seq"]?.integerValue))
        try #require(ssip.daemon.waitForAudio(seq: seq, samples: 22_050 / 2), "the first message is not being played")
        watcher.send(#"{"op":"stop","id":2}"#)
        try #require(watcher.waitFor("ok", id: 2) != nil)
        // Every message was queued (none refused): each ends, cancelled, and none is dropped.
        for index in 0..<messages {
            let finished = try #require(
                watcher.waitFor { $0.event == "speech" && $0["state"] == .string("finished") },
                "message \(index + 1) of \(messages) never ended"
            )
            #expect(finished["success"] == .bool(false))
        }
        #expect(watcher.received.allSatisfy { $0["state"] != .string("dropped") })
        #expect(
            audibleCount(try ssip.daemon.wavSamples(seq: seq)) > 22_050 / 4,
            "the first message was heard until it was stopped")
    }
}
