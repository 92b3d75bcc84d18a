import AnnounceProtocol
import TestSupport
import Testing

// SPDX-License-Identifier: GPL-3.0-or-later
@testable import AnnounceCore

@MainActor
@Suite("Pause and resume")
struct PauseTests {
    private let pause = #"{"op":"pause","id":90}"#
    private let resume = #"{"op":"resume","id":91}"#

    @Test("pause holds the speaking post without ending it; resume continues it and it finishes as usual")
    func pauseAndResumeTheSpeakingPost() {
        let h = Harness()
        h.send(announce(1, "A long sentence"))
        h.engineStarts()
        h.send(pause)
        #expect(h.backend.holds.withLock { $0 } == [true])
        #expect(h.sink(1).received.contains(.paused(id: 1, seq: 1)))
        #expect(h.sink(1).received.contains(.ok(id: 90, fields: JSONObject())))
        #expect(h.sink(1).terminal(1) == nil, "a paused post is still speaking")
        #expect(h.dispatcher.statusReport.paused)
        #expect(h.dispatcher.statusReport.speaking)
        h.send(resume)
        #expect(h.backend.holds.withLock { $0 } == [true, false])
        #expect(h.sink(1).received.contains(.resumed(id: 1, seq: 1)))
        #expect(!h.dispatcher.statusReport.paused)
        h.engineFinishes()
        #expect(h.sink(1).terminal(1) == .finished(id: 1, seq: 1, termination: .success))
        let order = h.sink(1).lines(for: 1).map(\.json.jsonText)
        #expect(
            order == [
                #"{"event":"queued","id":1,"seq":1}"#,
                #"{"event":"started","id":1,"seq":1,"text":"A long sentence"}"#,
                #"{"event":"paused","id":1,"seq":1}"#,
                #"{"event":"resumed","id":1,"seq":1}"#,
                #"{"event":"finished","id":1,"seq":1,"success":true}"#,
            ])
    }

    @Test("posts made while paused are queued but none starts until resume")
    func nothingStartsWhilePaused() {
        let h = Harness()
        h.send(pause)
        h.send(announce(1, "Waiting", #","priority":"high""#), announce(2, "Also waiting", #","priority":"high""#))
        #expect(h.backend.spokenTexts.isEmpty)
        // A later turn (here another connection's `status`) starts nothing either.
        h.dispatcher.submit(
            [ClientInput(decoded: RequestLine.decode(line: Array(#"{"op":"status","id":7}"#.utf8)))], from: 2)
        #expect(h.turns.scheduled == 1)
        h.turns.run()
        #expect(h.backend.spokenTexts.isEmpty)
        #expect(h.dispatcher.statusReport.pending == 2)
        #expect(!h.sink(1).received.contains { if case .paused = $0 { true } else { false } }, "nothing was speaking")
        h.send(resume)
        #expect(h.backend.spokenTexts == ["Waiting"])
        h.engineStarts()
        h.engineFinishes()
        #expect(h.backend.spokenTexts == ["Waiting", "Also waiting"])
    }

    @Test("the end of a post whose audio had all played does not start the next while paused")
    func finishedWhilePausedStartsNothing() {
        let h = Harness()
        h.send(announce(1, "First", #","priority":"high""#), announce(2, "Second", #","priority":"high""#))
        h.engineStarts()
        h.send(pause)
        h.engineFinishes()
        #expect(h.sink(1).terminal(1) == .finished(id: 1, seq: 1, termination: .success))
        #expect(h.backend.spokenTexts == ["First"])
        #expect(h.dispatcher.speaking == nil)
        h.send(resume)
        #expect(h.backend.spokenTexts == ["First", "Second"])
        #expect(
            !h.sink(1).received.contains(.resumed(id: 2, seq: 2)), "the post that starts on resume was never paused")
    }

    @Test("pause while paused and resume while not paused answer ok and change nothing")
    func repeatedRequestsChangeNothing() {
        let h = Harness()
        h.send(#"{"op":"subscribe","id":1,"events":["status"]}"#, from: 2)
        h.send(announce(1, "Speaking"))
        h.engineStarts()
        h.send(resume)
        #expect(h.sink(1).received.contains(.ok(id: 91, fields: JSONObject())))
        #expect(h.backend.holds.withLock { $0 }.isEmpty)
        h.send(pause)
        h.send(pause)
        #expect(h.backend.holds.withLock { $0 } == [true])
        #expect(h.sink(1).received.filter { $0 == .paused(id: 1, seq: 1) }.count == 1)
        #expect(h.sink(1).received.filter { $0 == .ok(id: 90, fields: JSONObject()) }.count == 2)
        let changes = h.sink(2).received.compactMap {
            if case .statusChanged(let report) = $0 { report.paused } else { nil }
        }
        #expect(changes == [true], "status-changed once, for the one change")
        h.send(resume)
        let after = h.sink(2).received.compactMap {
            if case .statusChanged(let report) = $0 { report.paused } else { nil }
        }
        #expect(after == [true, false])
    }

    @Test("cancel while paused ends the paused post cancelled with what it spoke; the next waits for resume")
    func cancelWhilePaused() {
        let h = Harness()
        h.send(announce(1, "Being spoken", #","priority":"high""#), announce(2, "Next", #","priority":"high""#))
        h.engineStarts()
        h.send(pause)
        h.send(#"{"op":"cancel","id":3,"target":1}"#)
        #expect(h.backend.aborted == [1])
        h.engineAborts(spokenChars: 6)
        #expect(
            h.sink(1).terminal(1) == .finished(id: 1, seq: 1, termination: .failure(reason: .cancelled, spokenChars: 6))
        )
        #expect(h.backend.spokenTexts == ["Being spoken"], "nothing starts while paused")
        h.send(resume)
        #expect(h.backend.spokenTexts == ["Being spoken", "Next"])
    }

    @Test("stop while paused ends the paused post and the pending ones cancelled")
    func stopWhilePaused() {
        let h = Harness()
        h.send(announce(1, "Being spoken", #","priority":"high""#), announce(2, "Next", #","priority":"high""#))
        h.engineStarts()
        h.send(pause)
        h.send(#"{"op":"stop","id":3}"#)
        #expect(
            h.sink(1).terminal(2) == .finished(id: 2, seq: 2, termination: .failure(reason: .cancelled, spokenChars: 0))
        )
        h.engineAborts(spokenChars: 5)
        #expect(
            h.sink(1).terminal(1) == .finished(id: 1, seq: 1, termination: .failure(reason: .cancelled, spokenChars: 5))
        )
        #expect(h.dispatcher.statusReport.paused, "stop does not resume")
    }

    @Test("mute while paused ends the paused post cancelled; unmute does not resume")
    func muteWhilePaused() {
        let h = Harness()
        h.send(announce(1, "Being spoken"))
        h.engineStarts()
        h.send(pause)
        h.send(#"{"op":"set","id":3,"muted":true}"#)
        #expect(h.backend.aborted == [1])
        h.engineAborts(spokenChars: 4)
        #expect(
            h.sink(1).terminal(1) == .finished(id: 1, seq: 1, termination: .failure(reason: .cancelled, spokenChars: 4))
        )
        h.send(#"{"op":"set","id":4,"muted":false}"#, announce(5, "After", #","priority":"high""#))
        #expect(h.dispatcher.statusReport.paused)
        #expect(h.backend.spokenTexts == ["Being spoken"])
    }

    @Test("an interrupting post while paused interrupts the paused one and waits for resume")
    func interruptionWhilePaused() {
        let h = Harness()
        h.send(announce(1, "Being spoken"))
        h.engineStarts()
        h.send(pause)
        h.send(announce(2, "Newer"))
        #expect(h.backend.aborted == [1])
        h.engineAborts(spokenChars: 3)
        #expect(
            h.sink(1).terminal(1)
                == .finished(id: 1, seq: 1, termination: .failure(reason: .interrupted, spokenChars: 3)))
        #expect(h.backend.spokenTexts == ["Being spoken"])
        h.send(resume)
        #expect(h.backend.spokenTexts == ["Being spoken", "Newer"])
        #expect(!h.sink(1).received.contains(.resumed(id: 2, seq: 2)))
    }

    @Test("hello lists pause among the features")
    func helloListsPause() {
        let h = Harness()
        h.send(#"{"op":"hello","id":1}"#)
        guard case .ok(_, let fields)? = h.sink(1).received.first, case .array(let features)? = fields["features"]
        else {
            Issue.record("no ok with features: \(h.sink(1).lines)")
            return
        }
        #expect(features.contains(.string("pause")))
    }
}
