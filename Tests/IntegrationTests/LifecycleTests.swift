// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import TestSupport
import Testing

@Suite("Daemon: lifecycle and scheduling over a real socket", .daemonTimeLimit, .onBlockingThreads, .serialized)
struct LifecycleTests {
    @Test("an announcement is queued, started with its text, and finished; its WAV equals espeak-ng's own output")
    func lifecycleAndPCM() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        let text = "Download complete"
        client.send(#"{"op":"announce","id":1,"text":"\#(text)","voice":"en-us","rate":175}"#)
        let terminal = try #require(client.waitForTerminal(id: 1))
        #expect(
            client.lines(id: 1).map(\.text) == [
                #"{"event":"queued","id":1,"seq":1}"#,
                #"{"event":"started","id":1,"seq":1,"text":"Download complete","voice":"en-us"}"#,
                #"{"event":"finished","id":1,"seq":1,"success":true}"#,
            ])
        #expect(terminal["success"] == .bool(true))

        let ours = WAVFile.trimmed(try daemon.wavSamples(seq: 1))
        let reference = WAVFile.trimmed(try espeakReference(text: text, voice: "en-us", rate: 175))
        #expect(ours.count > 10_000)
        #expect(ours.count == reference.count)
        #expect(ours.elementsEqual(reference), "the played PCM differs from `espeak-ng --stdout`")
    }

    @Test("three lines in one write speak Third only")
    func thirdOnly() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        client.send(announce(1, "First"), announce(2, "Second"), announce(3, "Third"))
        try #require(client.waitForTerminal(id: 3)?["success"] == .bool(true))
        for id in [1, 2] {
            #expect(client.lines(id: id).map { $0.event ?? "" } == ["queued", "finished"])
            #expect(client.lines(id: id).last?["reason"] == .string("interrupted"))
            #expect(client.lines(id: id).last?["spoken_chars"] == .integer(0))
        }
        #expect(client.lines(id: 3).compactMap { $0["text"]?.stringValue } == ["Third"])
        #expect(!FileManager.default.fileExists(atPath: daemon.wavDirectory + "/1.wav"))
        #expect(!FileManager.default.fileExists(atPath: daemon.wavDirectory + "/2.wav"))
    }

    @Test("an interruption reports what was played, and the WAV holds only that")
    func interruption() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        let long = "This is a rather long announcement that will certainly be interrupted before it reaches its end"
        client.send(announce(1, long, #","words":true"#))
        // Interrupt once playback has reached the third word.
        try #require(client.waitFor { $0.event == "word" && ($0["offset"]?.integerValue ?? 0) >= 10 } != nil)
        client.send(announce(2, "Stop"))
        let terminal = try #require(client.waitForTerminal(id: 1))
        #expect(terminal["reason"] == .string("interrupted"))
        let spoken = Int(terminal["spoken_chars"]?.integerValue ?? -1)
        #expect(spoken > 0 && spoken < long.unicodeScalars.count)
        try #require(client.waitForTerminal(id: 2)?["success"] == .bool(true))

        let interrupted = try daemon.wavSamples(seq: 1).count
        client.send(announce(3, long))
        try #require(client.waitForTerminal(id: 3)?["success"] == .bool(true))
        let full = try daemon.wavSamples(seq: 3).count
        #expect(interrupted > 0 && interrupted < full / 2, "interrupted \(interrupted) samples, full \(full)")
    }

    @Test("a high post is not interrupted; the interrupting post waits")
    func highNotInterrupted() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        client.send(announce(1, "Battery critically low", #","priority":"high""#))
        client.waitFor("started", id: 1)
        client.send(announce(2, "Hello"))
        try #require(client.waitForTerminal(id: 1)?["success"] == .bool(true))
        try #require(client.waitForTerminal(id: 2)?["success"] == .bool(true))
    }

    @Test("queued and low posts wait their turn: default before low, each in order")
    func queuedOrder() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        client.send(announce(1, "One"))
        client.waitFor("started", id: 1)
        client.send(
            announce(2, "Low", #","priority":"low""#), announce(3, "Two", #","queue":true"#),
            announce(4, "Three", #","queue":true"#)
        )
        try #require(client.waitForTerminal(id: 2) != nil)
        let starts = client.received.filter { $0.event == "started" }.compactMap { $0["text"]?.stringValue }
        #expect(starts == ["One", "Two", "Three", "Low"])
        #expect([1, 2, 3, 4].allSatisfy { client.lines(id: $0).last?["success"] == .bool(true) })
    }

    @Test("stop cancels speech and the pending list; cancel only the connection's own post")
    func stopAndCancel() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        let other = try daemon.connect()
        client.send(
            announce(1, "A sentence long enough to be stopped while it is speaking"),
            announce(2, "Later", #","queue":true"#))
        client.waitFor("started", id: 1)
        other.send(#"{"op":"cancel","id":9,"target":2}"#)
        #expect(other.waitFor("error", id: 9)?["code"] == .string("not-found"))
        client.send(#"{"op":"cancel","id":3,"target":2}"#)
        #expect(client.waitForTerminal(id: 2)?["reason"] == .string("cancelled"))
        client.waitFor("ok", id: 3)
        other.send(#"{"op":"stop","id":10}"#)
        other.waitFor("ok", id: 10)
        let terminal = try #require(client.waitForTerminal(id: 1))
        #expect(terminal["reason"] == .string("cancelled"))
        #expect((terminal["spoken_chars"]?.integerValue ?? -1) >= 0)
    }

    @Test("mute: speech is cancelled, posts finish muted, status says so; unmute speaks again")
    func mute() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        client.send(#"{"op":"subscribe","id":1,"events":["status"]}"#)
        client.send(announce(2, "Something long enough to still be speaking when muted"))
        client.waitFor("started", id: 2)
        client.send(#"{"op":"set","id":3,"muted":true}"#)
        #expect(client.waitForTerminal(id: 2)?["reason"] == .string("cancelled"))
        #expect(client.waitFor { $0.event == "status-changed" }?["muted"] == .bool(true))
        client.send(announce(4, "Quiet"))
        #expect(
            client.waitForTerminal(id: 4)?.text
                == #"{"event":"finished","id":4,"seq":2,"success":false,"reason":"muted","spoken_chars":0}"#)
        client.send(#"{"op":"status","id":5}"#)
        let status = try #require(client.waitFor("ok", id: 5))
        #expect(status["muted"] == .bool(true) && status["running"] == .bool(false))
        client.send(#"{"op":"set","id":6,"muted":false}"#, announce(7, "Loud"))
        #expect(client.waitForTerminal(id: 7)?["success"] == .bool(true))
    }

    @Test("a post marked as made off the main thread is dropped, and says so")
    func offMain() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        client.send(announce(1, "From a worker", #","thread":"background""#))
        #expect(client.waitForTerminal(id: 1)?.text == #"{"event":"dropped","id":1,"reason":"off-main"}"#)
    }

    @Test("word and mark events come between started and the terminal line")
    func wordsAndMarks() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        client.send(#"{"op":"announce","id":1,"ssml":true,"text":"<speak>Hello <mark name=\"m1\"/> world</speak>"}"#)
        client.send(announce(2, "Two words", #","words":true,"queue":true"#))
        try #require(client.waitForTerminal(id: 2) != nil)
        let first = client.lines(id: 1).map { $0.event ?? "" }
        #expect(first == ["queued", "started", "mark", "finished"])
        #expect(client.lines(id: 1).first { $0.event == "mark" }?["name"] == .string("m1"))
        let words = client.lines(id: 2).filter { $0.event == "word" }.map {
            [$0["offset"]?.integerValue, $0["length"]?.integerValue]
        }
        #expect(words == [[0, 3], [4, 5]])
    }

    @Test("posts of several connections in a burst each get exactly one terminal line")
    func burst() throws {
        let daemon = try DaemonProcess()
        let clients = try (0..<5).map { _ in try daemon.connect() }
        for (index, client) in clients.enumerated() {
            let lines = (0..<40).map { n -> String in
                let extra = [#""#, #","queue":true"#, #","priority":"low""#, #","priority":"high","queue":true"#][n % 4]
                return announce(n, "c\(index) n\(n)", extra)
            }
            client.sendRaw(Array(lines.map { $0 + "\n" }.joined().utf8))
        }
        // Once every post is decided, stop cancels whatever still waits.
        for client in clients { try #require(client.waitFor { $0["id"] == .integer(39) } != nil) }
        clients[0].send(#"{"op":"stop","id":999}"#)
        for client in clients {
            client.finishSending()
            #expect(client.waitForEOF(timeout: 120))
            for id in 0..<40 {
                let lines = client.lines(id: id)
                let terminals = lines.filter { ["finished", "dropped", "error"].contains($0.event ?? "") }
                #expect(terminals.count == 1, "post \(id): \(lines.map(\.text))")
                #expect(lines.first?.event == "queued")
                #expect(lines.last.map { ["finished", "dropped", "error"].contains($0.event ?? "") } == true)
            }
        }
    }
}
