// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import TestSupport
import Testing

@Suite("Daemon: bad input, limits and focus over a real socket", .daemonTimeLimit, .onBlockingThreads)
struct ProtocolErrorTests {
    @Test("every bad line gets its error code and the connection keeps working")
    func badLines() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        let cases: [(String, String)] = [
            ("{not json", "bad-json"),
            ("[1]", "not-object"),
            (#"{"id":1}"#, "missing-op"),
            (#"{"op":"sing","id":2}"#, "unknown-op"),
            (#"{"op":"announce","id":3,"text":"a","rate":\#(SpeechRanges.rate.upperBound + 1)}"#, "invalid"),
            (#"{"op":"announce","id":4,"text":"\#(String(repeating: "x", count: 1_048_577))"}"#, "text-too-long"),
            (#"{"op":"cancel","id":5,"target":77}"#, "not-found"),
            (#"{"op":"announce","id":6,"text":"a","voice":"no-such-voice"}"#, "invalid"),
        ]
        for (line, code) in cases {
            client.send(line)
            let error = try #require(client.waitFor { $0.event == "error" }, "no error for \(line)")
            #expect(error["code"] == .string(code), "\(line)")
            #expect((error["message"]?.stringValue ?? "").count > 10)
        }
        client.send(#"{"op":"status","id":"alive"}"#)
        #expect(client.waitFor { $0["id"] == .string("alive") }?.event == "ok")
    }

    @Test("a line over max_line_bytes gets line-too-long and the connection is closed; the daemon serves on")
    func lineTooLong() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        client.sendRaw(Array(repeating: UInt8(ascii: "a"), count: 4_194_305))
        let error = try #require(client.waitFor { $0.event == "error" })
        #expect(error["code"] == .string("line-too-long"))
        #expect(client.waitForEOF())
        let next = try daemon.connect()
        next.send(#"{"op":"status","id":1}"#)
        #expect(next.waitFor("ok", id: 1) != nil)
    }

    @Test("a line of exactly max_line_bytes is accepted")
    func lineAtLimit() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        let head = #"{"op":"status","id":1,"pad":""#
        let tail = #""}"#
        let padding = String(repeating: "p", count: 4_194_304 - head.utf8.count - tail.utf8.count)
        client.send(head + padding + tail)
        #expect(client.waitFor("ok", id: 1) != nil)
    }

    @Test("max_pending_per_client: the 257th waiting post is dropped queue-full")
    func queueFull() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        // A long post speaks first, so none of the 257 can start (and free its place) however
        // the daemon's reads split them: the speaking post is not waiting, the 257 are.
        client.send(announce(0, String(repeating: "Speaking while the queue fills. ", count: 40)))
        #expect(client.waitFor("started", id: 0) != nil)
        let lines = (1...257).map { announce($0, "p\($0)", #","priority":"low""#) }
        client.sendRaw(Array(lines.map { $0 + "\n" }.joined().utf8))
        #expect(client.sendError == nil)
        #expect(client.waitForTerminal(id: 257)?.text == #"{"event":"dropped","id":257,"reason":"queue-full"}"#)
        #expect(client.waitFor("queued", id: 256) != nil)
        client.send(#"{"op":"stop","id":9999}"#)
        #expect(client.waitFor("ok", id: 9999) != nil)
    }

    @Test("focus: focused and unfocused to the owners, focus-changed to subscribers, status shows it")
    func focus() throws {
        let daemon = try DaemonProcess()
        let app = try daemon.connect()
        let other = try daemon.connect()
        let watcher = try daemon.connect()
        watcher.send(#"{"op":"subscribe","id":1,"events":["focus"]}"#)
        watcher.waitFor("ok", id: 1)
        app.send(
            #"{"op":"focus","id":1,"element":{"id":"save","label":"Save","traits":["button"],"hint":"Saves the document."}}"#
        )
        #expect(app.waitFor { $0.event == "focused" }?["element"] == .string("save"))
        #expect(app.waitFor("started", id: 1)?["text"] == .string("Save, button. Saves the document."))
        #expect(
            watcher.waitFor { $0.event == "focus-changed" }?.text
                == #"{"event":"focus-changed","from":null,"to":"save","owner":false}"#)
        other.send(
            #"{"op":"screen-changed","id":2,"element":null,"elements":[{"id":"b","label":"Body"},{"id":"t","label":"Inbox","traits":["header"],"sort_priority":5}]}"#
        )
        #expect(other.waitFor("started", id: 2)?["text"] == .string("Inbox, heading"))
        #expect(app.waitFor { $0.event == "unfocused" }?["element"] == .string("save"))
        #expect(app.waitForTerminal(id: 1)?["reason"] == .string("interrupted"))
        other.send(#"{"op":"layout-changed","id":3,"element":null,"elements":[]}"#)
        #expect(other.waitForTerminal(id: 3)?["success"] == .bool(true))
        other.send(#"{"op":"status","id":4}"#)
        #expect(other.waitFor("ok", id: 4)?["focus"] == .string("t"))
        other.send(#"{"op":"focus","id":5,"lang":"de","element":{"id":"s","label":"Speichern","traits":["button"]}}"#)
        #expect(other.waitFor("started", id: 5)?["text"] == .string("Speichern, Taste"))
    }

    @Test("speech subscribers see every client's posts by name, without ids")
    func speechSubscription() throws {
        let daemon = try DaemonProcess()
        let watcher = try daemon.connect()
        watcher.send(#"{"op":"subscribe","id":1,"events":["speech"]}"#)
        watcher.waitFor("ok", id: 1)
        let mail = try daemon.connect()
        mail.send(#"{"op":"hello","id":1,"client":"mail"}"#, announce(2, "3 new messages"))
        #expect(mail.waitFor("ok", id: 1)?["protocol"] == .integer(1))
        let started = try #require(watcher.waitFor { $0.event == "speech" && $0["state"] == .string("started") })
        #expect(started["client"] == .string("mail"))
        #expect(started["text"] == .string("3 new messages"))
        #expect(started["id"] == nil)
        let finished = try #require(watcher.waitFor { $0.event == "speech" && $0["state"] == .string("finished") })
        #expect(finished["success"] == .bool(true))
    }

    @Test("a client that stops reading is cut off past max_outbound_bytes; others are unaffected")
    func slowReader() throws {
        let daemon = try DaemonProcess()
        let sleeper = try daemon.connect()
        sleeper.send(#"{"op":"subscribe","events":["speech"]}"#)
        let poster = try daemon.connect()
        poster.send(#"{"op":"status","id":0}"#)
        poster.waitFor("ok", id: 0)
        // Fire-and-forget posts that replace each other: each produces a speech event for the sleeper.
        let line = #"{"op":"announce","text":"\#(String(repeating: "padding ", count: 40))"}"# + "\n"
        for _ in 0..<40 { poster.sendRaw(Array(String(repeating: line, count: 500).utf8)) }
        poster.send(#"{"op":"stop","id":1}"#)
        #expect(poster.waitFor("ok", id: 1, timeout: 60) != nil)
        // The sleeper's events are written on its own event loop, which may lag behind the answers
        // to the poster on a loaded machine; read nothing until the daemon has cut it off (`status`
        // counts the poster alone; no event tells of another client leaving, so it is asked again).
        // The daemon cuts a client off at the first write that finds more than the limit unread:
        // on a loaded machine the posts' events can reach the sleeper in a turn or two, the last
        // of them taking it past the limit, so each round posts once more, a write to check at.
        var id = 99
        let alone = pollUntil(every: 0.05, timeout: 60) {
            id += 1
            poster.send(#"{"op":"announce","text":"Tick."}"#)
            poster.send(#"{"op":"status","id":\#(id)}"#)
            return poster.waitFor("ok", id: id)?["clients"]?.intValue == 1
        }
        #expect(alone, "the daemon still serves the sleeper a minute after the posts")
        var total = 0
        while let next = sleeper.nextLine(timeout: 10) { total += next.text.utf8.count + 1 }
        #expect(sleeper.sawEOF, "the slow reader should have been disconnected")
        #expect(total < 20_000 * 100, "it received \(total) bytes")
        poster.send(#"{"op":"status","id":2}"#)
        #expect(poster.waitFor("ok", id: 2) != nil)
    }
}
