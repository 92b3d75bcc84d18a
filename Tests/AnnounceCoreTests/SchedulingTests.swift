import AnnounceProtocol
import TestSupport
import Testing

// SPDX-License-Identifier: GPL-3.0-or-later
@testable import AnnounceCore

@MainActor
@Suite("Scheduling rules")
struct SchedulingTests {
    @Test("an announcement is queued, started and finished")
    func lifecycle() {
        let h = Harness()
        h.send(announce(1, "Download complete"))
        #expect(h.backend.spokenTexts == ["Download complete"])
        h.engineStarts()
        h.engineFinishes()
        #expect(
            h.sink(1).lines == [
                #"{"event":"queued","id":1,"seq":1}"#,
                #"{"event":"started","id":1,"seq":1,"text":"Download complete"}"#,
                #"{"event":"finished","id":1,"seq":1,"success":true}"#,
            ])
    }

    @Test("three lines of one read speak Third only")
    func thirdOnly() {
        let h = Harness()
        h.send(announce(1, "First"), announce(2, "Second"), announce(3, "Third"))
        #expect(h.backend.spokenTexts == ["Third"])
        h.engineStarts()
        for id: RequestID in [1, 2] {
            let lines = h.sink(1).lines(for: id)
            #expect(lines.count == 2)
            #expect(
                lines.last
                    == .finished(
                        id: id, seq: lines.first.flatMap { if case .queued(_, let s, _) = $0 { s } else { nil } } ?? 0,
                        termination: .failure(reason: .interrupted, spokenChars: 0)))
            #expect(!lines.contains { if case .started = $0 { true } else { false } })
        }
    }

    @Test("reads of several connections that arrive before a turn are decided in that one turn, then the last speaks")
    func readsArrivingTogetherShareOneTurn() {
        let h = Harness()
        h.dispatcher.submit([ClientInput(decoded: RequestLine.decode(line: Array(announce(1, "First").utf8)))], from: 1)
        h.dispatcher.submit(
            [ClientInput(decoded: RequestLine.decode(line: Array(announce(1, "Second").utf8)))], from: 2)
        #expect(h.turns.scheduled == 1, "one turn for everything that arrived before it")
        h.turns.runOne()
        #expect(h.backend.spokenTexts == ["Second"], "started at the end of the same turn")
        #expect(
            h.sink(1).terminal(1)
                == .finished(id: 1, seq: 1, termination: .failure(reason: .interrupted, spokenChars: 0)))
        #expect(h.turns.scheduled == 0)
    }

    @Test("the engine's end of the interrupted post and the next start happen in one turn")
    func interruptedEndAndNextStartShareOneTurn() {
        let h = Harness()
        h.send(announce(1, "A long sentence that is being spoken"))
        h.engineStarts()
        h.send(announce(2, "Now"))
        #expect(h.backend.aborted == [1])
        h.dispatcher.backendEventHandler(.finished(seq: 1, outcome: .aborted(spokenChars: 2)))
        #expect(h.turns.scheduled == 1)
        h.turns.runOne()
        #expect(
            h.sink(1).terminal(1)
                == .finished(id: 1, seq: 1, termination: .failure(reason: .interrupted, spokenChars: 2)))
        #expect(
            h.backend.spokenTexts == ["A long sentence that is being spoken", "Now"],
            "no second trip through the main queue")
        #expect(h.turns.scheduled == 0)
    }

    @Test("an interrupting post interrupts the speaking one, which reports what it spoke")
    func interruption() {
        let h = Harness()
        h.send(announce(1, "A long sentence that is being spoken"))
        h.engineStarts()
        h.send(announce(2, "Now"))
        #expect(h.backend.aborted == [1])
        #expect(
            h.backend.spokenTexts == ["A long sentence that is being spoken"], "the next waits for the old one to stop")
        h.engineAborts(spokenChars: 7)
        #expect(
            h.sink(1).terminal(1)
                == .finished(id: 1, seq: 1, termination: .failure(reason: .interrupted, spokenChars: 7)))
        #expect(h.backend.spokenTexts.last == "Now")
    }

    @Test("a high post is never interrupted; the newcomer waits")
    func highNotInterrupted() {
        let h = Harness()
        h.send(announce(1, "Battery low", #","priority":"high""#))
        h.engineStarts()
        h.send(announce(2, "Hello"))
        #expect(h.backend.aborted.isEmpty)
        h.engineFinishes()
        #expect(h.sink(1).terminal(1) == .finished(id: 1, seq: 1, termination: .success))
        #expect(h.backend.spokenTexts == ["Battery low", "Hello"])
    }

    @Test("a high post interrupts a default one, and high posts queue first come first served")
    func highInterruptsDefault() {
        let h = Harness()
        h.send(announce(1, "Chatter"))
        h.engineStarts()
        h.send(announce(2, "Alarm", #","priority":"high""#), announce(3, "Alarm two", #","priority":"high""#))
        #expect(h.backend.aborted == [1])
        h.engineAborts()
        h.engineStarts()
        h.engineFinishes()
        h.engineStarts()
        h.engineFinishes()
        #expect(h.backend.spokenTexts == ["Chatter", "Alarm", "Alarm two"])
    }

    @Test("a high post with queue true waits behind a default one")
    func highQueued() {
        let h = Harness()
        h.send(announce(1, "Chatter"))
        h.engineStarts()
        h.send(announce(2, "Later", #","priority":"high","queue":true"#))
        #expect(h.backend.aborted.isEmpty)
    }

    @Test("queued posts wait: high, then the interrupting one, then default-queued before low, each in order")
    func pendingOrder() {
        let h = Harness()
        h.send(announce(1, "Speaking", #","priority":"high""#))
        h.engineStarts()
        h.send(
            announce(2, "low one", #","priority":"low""#),
            announce(3, "queued one", #","queue":true"#),
            announce(4, "interrupting"),
            announce(5, "low two", #","priority":"low""#),
            announce(6, "queued two", #","queue":true"#),
            announce(7, "high two", #","priority":"high""#)
        )
        for _ in 0..<7 {
            h.engineStarts()
            h.engineFinishes()
        }
        #expect(
            h.backend.spokenTexts == [
                "Speaking", "high two", "interrupting", "queued one", "queued two", "low one", "low two",
            ])
        #expect(h.dispatcher.pending.isEmpty)
    }

    @Test("queued posts do not interrupt and are never replaced")
    func queuedNotReplaced() {
        let h = Harness()
        h.send(announce(1, "One"))
        h.engineStarts()
        h.send(announce(2, "Two", #","queue":true"#), announce(3, "Three", #","queue":true"#))
        #expect(h.backend.aborted.isEmpty)
        h.engineFinishes()
        h.engineStarts()
        h.engineFinishes()
        h.engineStarts()
        h.engineFinishes()
        #expect(h.backend.spokenTexts == ["One", "Two", "Three"])
        #expect([1, 2, 3].allSatisfy { h.sink(1).terminal(RequestID.integer(Int64($0)))?.isSuccess == true })
    }

    @Test("a newer interrupting post replaces a waiting one, across connections")
    func replacement() {
        let h = Harness()
        h.send(announce(1, "High", #","priority":"high""#))
        h.engineStarts()
        h.send(announce(2, "Old"), from: 1)
        h.send(announce(3, "New"), from: 2)
        #expect(
            h.sink(1).terminal(2)
                == .finished(id: 2, seq: 2, termination: .failure(reason: .interrupted, spokenChars: 0)))
        h.engineFinishes()
        #expect(h.backend.spokenTexts == ["High", "New"])
    }

    @Test("screen-changed interrupts and discards pending default and low posts, keeps high ones, with the earcon")
    func screenChanged() {
        let h = Harness()
        h.send(announce(1, "Speaking"))
        h.engineStarts()
        h.send(
            announce(2, "queued", #","queue":true"#), announce(3, "low", #","priority":"low""#),
            announce(4, "high", #","priority":"high","queue":true"#)
        )
        h.send(#"{"op":"screen-changed","id":5,"element":"Settings"}"#)
        #expect(h.backend.aborted == [1])
        for id: RequestID in [2, 3] {
            if case .finished(_, _, .failure(.interrupted, 0, nil)) = h.sink(1).terminal(id) {
            } else {
                Issue.record("post \(id) was not discarded: \(String(describing: h.sink(1).terminal(id)))")
            }
        }
        #expect(h.sink(1).terminal(4) == nil)
        h.engineAborts()
        h.engineStarts()
        h.engineFinishes()
        #expect(h.backend.spokenTexts == ["Speaking", "high", "Settings"])
        #expect(h.backend.spoken.last?.earcon == true)
        #expect(h.backend.spoken.first?.earcon == false)
    }

    @Test("screen-changed does not interrupt a high post")
    func screenChangedKeepsHigh() {
        let h = Harness()
        h.send(announce(1, "Alarm", #","priority":"high""#))
        h.engineStarts()
        h.send(#"{"op":"screen-changed","id":2,"element":"Home"}"#)
        #expect(h.backend.aborted.isEmpty)
    }

    @Test("a post with nothing to speak finishes at once, without started")
    func nothingToSpeak() {
        let h = Harness()
        h.send(#"{"op":"layout-changed","id":1,"element":null}"#, #"{"op":"screen-changed","id":2}"#)
        #expect(
            h.sink(1).lines == [
                #"{"event":"queued","id":1,"seq":1}"#, #"{"event":"finished","id":1,"seq":1,"success":true}"#,
                #"{"event":"queued","id":2,"seq":2}"#, #"{"event":"finished","id":2,"seq":2,"success":true}"#,
            ])
        #expect(h.backend.spoken.isEmpty)
    }

    @Test("stop cancels the speaking post and empties the pending list")
    func stop() {
        let h = Harness()
        h.send(announce(1, "One", #","priority":"high""#))
        h.engineStarts()
        h.send(announce(2, "Two", #","queue":true"#))
        h.send(#"{"op":"stop","id":3}"#, from: 2)
        #expect(
            h.sink(1).terminal(2) == .finished(id: 2, seq: 2, termination: .failure(reason: .cancelled, spokenChars: 0))
        )
        #expect(h.sink(2).lines == [#"{"event":"ok","id":3}"#])
        #expect(h.backend.aborted == [1], "stop ends even a high post")
        h.engineAborts(spokenChars: 2)
        #expect(
            h.sink(1).terminal(1) == .finished(id: 1, seq: 1, termination: .failure(reason: .cancelled, spokenChars: 2))
        )
        #expect(h.dispatcher.speaking == nil)
    }

    @Test("cancel ends only the connection's own post; another's id is not-found")
    func cancel() {
        let h = Harness()
        h.send(announce(1, "Mine"), from: 1)
        h.engineStarts()
        h.send(announce(7, "Queued", #","queue":true"#), from: 1)
        h.send(#"{"op":"cancel","id":2,"target":7}"#, from: 2)
        #expect(h.sink(2).lines.first?.contains(#""code":"not-found""#) == true)
        h.send(#"{"op":"cancel","id":3,"target":7}"#, from: 1)
        #expect(
            h.sink(1).terminal(7) == .finished(id: 7, seq: 2, termination: .failure(reason: .cancelled, spokenChars: 0))
        )
        h.send(#"{"op":"cancel","id":4,"target":1}"#, from: 1)
        #expect(h.backend.aborted == [1])
        h.engineAborts()
        #expect(
            h.sink(1).terminal(1) == .finished(id: 1, seq: 1, termination: .failure(reason: .cancelled, spokenChars: 0))
        )
        h.send(#"{"op":"cancel","id":5,"target":1}"#, from: 1)
        #expect(
            h.sink(1).received.last
                == .error(
                    id: 5, code: .notFound, message: "no post with id 1 of this connection is pending or speaking"))
    }

    @Test("muting cancels speech; posts while muted finish muted; unmuting speaks again")
    func mute() {
        let h = Harness()
        h.send(#"{"op":"subscribe","id":0,"events":["status"]}"#, from: 2)
        h.send(announce(1, "Talking"))
        h.engineStarts()
        h.send(#"{"op":"set","id":2,"muted":true}"#, from: 2)
        h.engineAborts()
        #expect(
            h.sink(1).terminal(1) == .finished(id: 1, seq: 1, termination: .failure(reason: .cancelled, spokenChars: 0))
        )
        h.send(announce(3, "Quiet"))
        #expect(
            h.sink(1).lines(for: 3).map(\.json.jsonText) == [
                #"{"event":"queued","id":3,"seq":2}"#,
                #"{"event":"finished","id":3,"seq":2,"success":false,"reason":"muted","spoken_chars":0}"#,
            ])
        #expect(h.backend.spoken.count == 1)
        let statusEvents = h.sink(2).received.compactMap { if case .statusChanged(let s) = $0 { s } else { nil } }
        #expect(statusEvents.map(\.muted) == [true])
        h.send(#"{"op":"set","muted":false}"#, from: 2)
        h.send(announce(4, "Loud"))
        #expect(h.backend.spokenTexts.last == "Loud")
        #expect(
            h.sink(2).received.compactMap { if case .statusChanged(let s) = $0 { s.running } else { nil } } == [
                false, true,
            ])
    }

    @Test("max_pending_per_client drops the excess with queue-full, per connection")
    func queueFull() {
        let h = Harness { $0.maxPendingPerClient = 2 }
        h.send(
            announce(1, "a", #","queue":true"#), announce(2, "b", #","queue":true"#),
            announce(3, "c", #","queue":true"#))
        #expect(h.sink(1).terminal(3) == .dropped(id: 3, reason: .queueFull))
        h.send(announce(4, "d", #","queue":true"#), from: 2)
        #expect(h.sink(2).lines(for: 4).first == .queued(id: 4, seq: 3))
        h.engineStarts()
        h.engineFinishes()
        h.send(announce(5, "e", #","queue":true"#))
        #expect(h.sink(1).lines(for: 5).first == .queued(id: 5, seq: 4), "a finished post frees its place")
    }

    @Test("posts without an id get no lines, but their errors are reported")
    func fireAndForget() {
        let h = Harness()
        h.send(#"{"op":"announce","text":"Quiet please"}"#, #"{"op":"announce","text":""}"#, #"{"op":"status"}"#)
        h.engineStarts()
        h.engineFinishes()
        #expect(h.sink(1).received.count == 1)
        if case .error(nil, .invalid, _) = h.sink(1).received.first {
        } else {
            Issue.record("expected an invalid error without id")
        }
        #expect(h.backend.spokenTexts == ["Quiet please"])
    }

    @Test("speech subscribers see every client's posts with its name, and never an id")
    func speechEvents() {
        let h = Harness()
        h.send(#"{"op":"subscribe","id":1,"events":["speech"]}"#, from: 3)
        h.send(#"{"op":"hello","id":1,"client":"mail"}"#, announce(2, "3 new messages"), from: 1)
        h.send(announce(9, "x", #","thread":"background""#), from: 2)
        h.engineStarts()
        h.engineFinishes()
        let lines = h.sink(3).lines
        #expect(
            lines == [
                #"{"event":"ok","id":1}"#,
                #"{"event":"speech","state":"dropped","client":"pid:101","reason":"off-main"}"#,
                #"{"event":"speech","state":"started","seq":1,"client":"mail","text":"3 new messages"}"#,
                #"{"event":"speech","state":"finished","seq":1,"client":"mail","success":true}"#,
            ])
    }

    @Test("a subscription ends with its connection: a later connection under the same number hears nothing")
    func subscriptionEndsWithConnection() {
        let h = Harness()
        h.send(#"{"op":"subscribe","id":1,"events":["speech","focus","status"]}"#, from: 3)
        h.dispatcher.unregister(3)
        h.dispatcher.register(ClientRegistration(id: 3, pid: 300, sink: h.sink(3)))
        h.sink(3).clear()
        h.send(announce(1, "Saved"), #"{"op":"focus","id":2,"element":{"id":"a","label":"A"}}"#, from: 1)
        h.send(#"{"op":"set","id":3,"rate":200}"#, from: 1)
        h.engineStarts()
        h.engineFinishes()
        #expect(h.sink(3).received.isEmpty)
        #expect(h.sink(1).lines(for: 3) == [.ok(id: 3, fields: JSONObject())])
    }

    @Test("word events only when asked, marks always, with the post's id and seq")
    func wordsAndMarks() {
        let h = Harness()
        h.send(announce(1, "Hello there", #","words":true"#))
        h.engineStarts()
        h.dispatcher.transaction { $0.handle(.word(seq: 1, offset: 6, length: 5)) }
        h.engineFinishes()
        #expect(h.sink(1).lines.contains(#"{"event":"word","id":1,"seq":1,"offset":6,"length":5}"#))
        h.send(announce(2, "Plain"))
        h.engineStarts()
        h.dispatcher.transaction { $0.handle(.word(seq: 2, offset: 0, length: 5)) }
        h.dispatcher.transaction { $0.handle(.mark(seq: 2, name: "m1")) }
        #expect(!h.sink(1).lines(for: 2).contains { if case .word = $0 { true } else { false } })
        #expect(h.sink(1).lines(for: 2).contains(.mark(id: 2, seq: 2, name: "m1")))
    }

    @Test("an engine failure ends the post with error and its message, and the next one speaks")
    func engineError() {
        let h = Harness()
        h.send(announce(1, "Broken"), announce(2, "Fine", #","queue":true"#))
        h.engineStarts()
        h.engineFinishes(.failed(message: "audio device lost", spokenChars: 3))
        #expect(
            h.sink(1).terminal(1)
                == .finished(
                    id: 1, seq: 1, termination: .failure(reason: .error, spokenChars: 3, message: "audio device lost")))
        #expect(h.backend.spokenTexts == ["Broken", "Fine"])
    }

    @Test("shutdown ends every post with shutdown, later posts too")
    func shutdown() async {
        let h = Harness()
        h.send(announce(1, "One"), announce(2, "Two", #","queue":true"#))
        h.engineStarts()
        let task = Task { await h.dispatcher.shutdown() }
        while h.backend.aborted.isEmpty {
            h.turns.run()
            await Task.yield()
        }
        #expect(
            h.sink(1).terminal(2) == .finished(id: 2, seq: 2, termination: .failure(reason: .shutdown, spokenChars: 0)))
        h.engineAborts(spokenChars: 1)
        await task.value
        #expect(
            h.sink(1).terminal(1) == .finished(id: 1, seq: 1, termination: .failure(reason: .shutdown, spokenChars: 1)))
        h.send(announce(3, "Late"))
        #expect(
            h.sink(1).terminal(3) == .finished(id: 3, seq: 3, termination: .failure(reason: .shutdown, spokenChars: 0)))
    }

    @Test("status and hello answer with the protocol's fields")
    func statusAndHello() {
        let h = Harness()
        h.send(#"{"op":"hello","id":"h","client":"tests"}"#, #"{"op":"status","id":"s"}"#)
        let lines = h.sink(1).lines
        #expect(
            lines.first
                == #"{"event":"ok","id":"h","daemon":"announced","version":"0.1.0","protocol":1,"features":["navigation","lint","voices","short-posts","client-cancel","pause","history"]}"#
        )
        let status = lines.last ?? ""
        for field in [
            "running", "muted", "speaking", "pending", "voice", "rate", "pitch", "volume", "audio", "clients", "focus",
            "uptime_s", "version", "screen", "stops", "paused",
        ] {
            #expect(status.contains("\"\(field)\":"), "status lacks \(field)")
        }
        #expect(status.contains(#""clients":3"#))
        #expect(status.contains(#""audio":"fake""#))
    }

    @Test("set changes the defaults used by later posts; an unknown voice is invalid")
    func setDefaults() {
        let h = Harness()
        h.send(#"{"op":"set","id":1,"voice":"de","rate":300,"pitch":20,"volume":150}"#)
        h.send(announce(2, "Hallo"))
        let utterance = h.backend.spoken.first
        #expect(utterance?.voice == "de")
        #expect(utterance?.rate == 300)
        #expect(utterance?.pitch == 20)
        #expect(utterance?.volume == 150)
        h.send(#"{"op":"set","id":3,"voice":"klingon"}"#)
        if case .error(3, .invalid, let message) = h.sink(1).received.last {
            #expect(message.contains("klingon"))
        } else {
            Issue.record("expected invalid")
        }
        h.send(announce(4, "x", #","voice":"klingon""#))
        #expect(h.sink(1).terminal(4).map { if case .error(4, .invalid, _) = $0 { true } else { false } } == true)
    }

    @Test("lang picks the voice when voice is absent")
    func langPicksVoice() {
        let h = Harness()
        h.send(announce(1, "Bonjour", #","lang":"fr-CA""#), announce(2, "你好", #","lang":"zh-Hans","priority":"high""#))
        #expect(h.backend.spoken.map(\.voice) == ["cmn"])
        h.engineStarts()
        h.engineFinishes()
        // "Bonjour" was replaced by nothing: it is interrupting and waits; then it speaks.
        #expect(h.backend.spoken.map(\.voice) == ["cmn", "fr-fr"])
    }
}

extension Event {
    var isSuccess: Bool {
        if case .finished(_, _, .success) = self { return true }
        return false
    }
}
