import AnnounceProtocol
import Dispatch
import Testing

// SPDX-License-Identifier: GPL-3.0-or-later
@testable import AnnounceCore

@MainActor
@Suite("UIKit's main-thread rule")
struct OffMainTests {
    @Test("a post made from a background thread is dropped, logged and reported off-main")
    func backgroundPostDropped() async {
        let h = Harness()
        let dispatcher = h.dispatcher
        let admission = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: dispatcher.post(.announce("From a worker"), id: 5, from: 1))
            }
        }
        #expect(admission == .dropped(.offMain))
        h.turns.run()
        #expect(h.sink(1).lines == [#"{"event":"dropped","id":5,"reason":"off-main"}"#])
        #expect(h.backend.spoken.isEmpty)
    }

    @Test("the same post made on the main thread is queued")
    func mainThreadPostQueued() {
        let h = Harness()
        #expect(h.dispatcher.post(.announce("On main"), id: 5, from: 1) == .queued(seq: 1))
        h.turns.run()
        #expect(h.backend.spokenTexts == ["On main"])
    }

    // On Linux the main queue is drained by whichever libdispatch worker is free, and
    // `DispatchQueue.main.sync` from a worker runs the block on that worker: these two tests use
    // that to put the main queue on a thread of their choosing.

    @Test("a post on the main queue counts as main, whichever thread drains the queue")
    func mainQueueOnAnotherThread() async {
        let h = Harness()
        let dispatcher = h.dispatcher
        let admission = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    returning: DispatchQueue.main.sync { dispatcher.post(.announce("On main"), id: 5, from: 1) })
            }
        }
        #expect(admission == .queued(seq: 1))
        h.turns.run()
        #expect(h.backend.spokenTexts == ["On main"])
    }

    @Test("a post from a worker thread that drained the main queue earlier is still dropped")
    func workerThatRanTheMainQueue() async {
        // The dispatcher is made on the main queue while a worker drains it; the same worker,
        // back on the global queue, posts. (A check that compared threads would take it for the
        // main thread, and the daemon would trap in `MainActor.assumeIsolated`.)
        let (admission, h) = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let h = DispatchQueue.main.sync { MainActor.assumeIsolated { Harness() } }
                continuation.resume(returning: (h.dispatcher.post(.announce("From a worker"), id: 5, from: 1), h))
            }
        }
        #expect(admission == .dropped(.offMain))
        h.turns.run()
        #expect(h.sink(1).lines == [#"{"event":"dropped","id":5,"reason":"off-main"}"#])
        #expect(h.backend.spoken.isEmpty)
    }

    @Test("a line marked thread: worker is dropped off-main in its place among the answers of its read")
    func submitMarkedBackgroundKeepsOrder() {
        let h = Harness()
        let lines = [
            #"{"op":"announce","id":3,"text":"x","thread":"worker"}"#,
            #"{"op":"announce","id":4,"text":"y"}"#,
        ].map { ClientInput(decoded: RequestLine.decode(line: Array($0.utf8))) }
        h.dispatcher.submit(lines, from: 1)
        h.turns.run()
        #expect(Array(h.sink(1).received.prefix(2)) == [.dropped(id: 3, reason: .offMain), .queued(id: 4, seq: 1)])
    }
}
