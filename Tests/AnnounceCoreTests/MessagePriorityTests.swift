import AnnounceProtocol
import TestSupport
import Testing

// SPDX-License-Identifier: GPL-3.0-or-later
@testable import AnnounceCore

/// What a post is, for these tests: one of SSIP's five priorities (a front-end message) or a
/// native post of the JSON protocol.
enum PostKind: String, CustomStringConvertible, CaseIterable {
    case important, message, text, notification, progress
    case nativeHigh = "native high"
    case nativeDefault = "native default"
    case nativeQueued = "native queued default"
    case nativeLow = "native low"

    var description: String { rawValue }

    var priority: MessagePriority? { MessagePriority(rawValue: rawValue) }

    /// The extra JSON fields of a native post of this kind.
    var nativeFields: String {
        switch self {
        case .nativeHigh: return #","priority":"high""#
        case .nativeQueued: return #","queue":true"#
        case .nativeLow: return #","priority":"low""#
        default: return ""
        }
    }
}

extension Harness {
    /// Queues posts as one read of `client` (ids and texts as given), and runs the turns.
    func post(_ posts: [(id: Int, kind: PostKind)], from client: ClientID = 1) {
        let inputs = posts.map { id, kind -> ClientInput in
            if let priority = kind.priority {
                return .message(
                    MessagePost(id: .integer(Int64(id)), text: "\(kind) \(id)", priority: priority) { _ in
                        SpeechOptions()
                    })
            }
            return ClientInput(
                decoded: RequestLine.decode(line: Array(announce(id, "\(kind) \(id)", kind.nativeFields).utf8)))
        }
        dispatcher.transaction { $0.receive(inputs, from: client) }
        turns.run()
    }

    /// Queues one post of `client` and runs the turns.
    func post(_ id: Int, _ kind: PostKind, from client: ClientID = 1) { post([(id, kind)], from: client) }

    /// Queues one post and lets the engine begin it.
    func speak(_ id: Int, _ kind: PostKind, from client: ClientID = 1) {
        post(id, kind, from: client)
        engineStarts()
    }

    /// A control from `client`, as a front-end hands it over, and the turns after it.
    func control(_ control: SpeechControl, _ scope: ClientScope, from client: ClientID = 1) {
        let input = ClientInput.control(control, scope)
        dispatcher.transaction { $0.receive([input], from: client) }
        turns.run()
    }

    /// How post `id` of `client` ended so far: `spoken`, its failure reason, or nil while it lasts.
    func outcome(_ id: Int, of client: ClientID = 1) -> String? {
        switch sink(client).terminal(.integer(Int64(id))) {
        case .finished(_, _, .success)?: return "spoken"
        case .finished(_, _, .failure(let reason, _, _))?: return reason.rawValue
        case let other?: return "\(other)"
        case nil: return nil
        }
    }

    /// True when post `id` of `client` began speaking.
    func began(_ id: Int, of client: ClientID = 1) -> Bool {
        sink(client).lines(for: .integer(Int64(id))).contains { if case .started = $0 { true } else { false } }
    }

    /// The engine finishes (or honours the abort of) whatever speaks, until nothing does; returns
    /// the texts in the order they spoke.
    func playToTheEnd() -> [String] {
        var order: [String] = []
        while let current = dispatcher.speaking {
            order.append(current.utterance.text)
            if current.endReason == nil {
                if !current.started { engineStarts() }
                engineFinishes()
            } else {
                engineAborts()
            }
        }
        return order
    }

    /// `client` got the control's answer (`done`) once; when the control ended the speaking post
    /// `ended` (client 1's), before that post's terminal line (SSIP: 213 before 703, shared/ssip.md §7).
    func expectAnswered(
        _ client: ClientID, beforeTerminalOf ended: Int?, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let lines = sink(client).all
        let answers = lines.indices.filter { if case .control(.done) = lines[$0] { true } else { false } }
        #expect(answers.count == 1, "client \(client): \(lines)", sourceLocation: sourceLocation)
        guard let ended, client == 1, let answer = answers.first else { return }
        let terminal = lines.firstIndex { line in
            guard case .event(let event) = line else { return false }
            return event.isTerminal && event.requestID == .integer(Int64(ended))
        }
        #expect(
            answer < (terminal ?? .min), "the answer before post \(ended)'s terminal line: \(lines)",
            sourceLocation: sourceLocation)
    }

    /// Every post of `client` in `ids` has exactly one terminal line.
    func expectOneTerminalEach(_ ids: [Int], of client: ClientID = 1, sourceLocation: SourceLocation = #_sourceLocation)
    {
        for id in ids {
            let terminals = sink(client).lines(for: .integer(Int64(id))).filter(\.isTerminal)
            #expect(
                terminals.count == 1, "post \(id) of client \(client): \(terminals)", sourceLocation: sourceLocation)
        }
    }
}

@MainActor
@Suite("SSIP's five priorities in the one queue (shared/ssip.md §4), and against native posts")
struct MessagePriorityTests {
    // MARK: important

    @Test(
        "important interrupts whatever non-important speaks",
        arguments: [
            PostKind.message, .text, .notification, .progress, .nativeDefault, .nativeQueued, .nativeLow,
        ])
    func importantInterrupts(speaking: PostKind) {
        let h = Harness()
        h.speak(1, speaking)
        h.post(2, .important)
        #expect(h.backend.aborted == [1])
        #expect(h.playToTheEnd() == ["\(speaking) 1", "important 2"])
        #expect(h.outcome(1) == "interrupted")
        #expect(h.outcome(2) == "spoken")
        h.expectOneTerminalEach([1, 2])
    }

    @Test(
        "important never interrupts an important or a native high post; they speak first come first served",
        arguments: [PostKind.important, .nativeHigh])
    func importantWaitsForHigh(speaking: PostKind) {
        let h = Harness()
        h.speak(1, speaking)
        h.post(2, .important)
        h.post(3, speaking == .important ? .nativeHigh : .important)
        #expect(h.backend.aborted.isEmpty)
        #expect(h.playToTheEnd().map { $0.split(separator: " ").last.map(String.init) } == ["1", "2", "3"])
        #expect([1, 2, 3].map { h.outcome($0) } == ["spoken", "spoken", "spoken"])
    }

    @Test("important ends waiting notification and progress; waiting message and text are postponed, not ended")
    func importantPostpones() {
        let h = Harness()
        h.speak(1, .progress)
        h.post(2, .progress) // waits behind the speaking progress
        h.post(3, .important)
        #expect(h.outcome(2) == "interrupted")
        #expect(!h.began(2))

        let g = Harness()
        g.speak(1, .nativeHigh)
        g.post([(2, .message), (3, .text), (4, .important)])
        #expect(g.playToTheEnd() == ["native high 1", "important 4", "message 2", "text 3"])
        #expect([2, 3, 4].map { g.outcome($0) } == ["spoken", "spoken", "spoken"])
    }

    // MARK: message

    @Test(
        "message ends the speaking text, notification or progress",
        arguments: [PostKind.text, .notification, .progress])
    func messageEndsSpeaking(speaking: PostKind) {
        let h = Harness()
        h.speak(1, speaking)
        h.post(2, .message)
        #expect(h.playToTheEnd() == ["\(speaking) 1", "message 2"])
        #expect(h.outcome(1) == "interrupted")
        h.expectOneTerminalEach([1, 2])
    }

    @Test(
        "message ends waiting text and progress, never interrupts a message, and messages speak first come first served"
    )
    func messageFIFO() {
        let h = Harness()
        h.speak(1, .message)
        h.post(2, .text)
        h.post(3, .message)
        #expect(h.outcome(2) == "interrupted")
        #expect(!h.began(2))
        h.post(4, .message)
        #expect(h.backend.aborted.isEmpty, "a message never interrupts a message")
        #expect(h.playToTheEnd() == ["message 1", "message 3", "message 4"])

        let g = Harness()
        g.speak(1, .progress)
        g.post(2, .progress)
        g.post(3, .message)
        #expect(g.outcome(2) == "interrupted")
        #expect(g.playToTheEnd() == ["progress 1", "message 3"])
        g.expectOneTerminalEach([1, 2, 3])
    }

    @Test("message and native queued default posts share one first-come-first-served line")
    func messageWithNativeQueued() {
        let h = Harness()
        h.speak(1, .nativeHigh)
        h.post([(2, .message), (3, .nativeQueued), (4, .message)])
        #expect(h.playToTheEnd() == ["native high 1", "message 2", "native queued default 3", "message 4"])
    }

    // MARK: text

    @Test("text keeps only the newest: a new text ends the speaking one and the waiting one")
    func textNewestOnly() {
        let h = Harness()
        h.speak(1, .text)
        h.post(2, .text)
        #expect(h.backend.aborted == [1])
        h.post(3, .text)
        #expect(h.outcome(2) == "interrupted")
        #expect(!h.began(2))
        #expect(h.playToTheEnd() == ["text 1", "text 3"])
        #expect(h.outcome(1) == "interrupted")
        #expect(h.outcome(3) == "spoken")
        h.expectOneTerminalEach([1, 2, 3])
    }

    @Test(
        "text waits for a waiting important or message, and never interrupts a speaking one",
        arguments: [PostKind.important, .message])
    func textWaits(other: PostKind) {
        let h = Harness()
        h.speak(1, other)
        h.post(2, .text)
        #expect(h.backend.aborted.isEmpty)
        #expect(h.playToTheEnd() == ["\(other) 1", "text 2"])
        #expect([1, 2].map { h.outcome($0) } == ["spoken", "spoken"])

        let g = Harness()
        g.speak(1, .nativeHigh)
        g.post(2, other)
        g.post(3, .text)
        #expect(g.playToTheEnd() == ["native high 1", "\(other) 2", "text 3"])
        #expect([1, 2, 3].map { g.outcome($0) } == ["spoken", "spoken", "spoken"])
    }

    @Test("text ends the speaking or waiting notification and progress", arguments: [PostKind.notification, .progress])
    func textEndsDroppables(speaking: PostKind) {
        let h = Harness()
        h.speak(1, speaking)
        h.post(2, .progress) // waits behind the speaking notification or progress
        h.post(3, .text)
        #expect(h.outcome(2) == "interrupted")
        #expect(h.playToTheEnd() == ["\(speaking) 1", "text 3"])
        #expect(h.outcome(1) == "interrupted")
        h.expectOneTerminalEach([1, 2, 3])
    }

    // MARK: notification

    @Test(
        "a notification is dropped at once, never begun, while anything else speaks",
        arguments: [
            PostKind.important, .message, .text, .progress, .nativeHigh, .nativeDefault, .nativeQueued, .nativeLow,
        ])
    func notificationDroppedWhileSpeaking(speaking: PostKind) {
        let h = Harness()
        h.speak(1, speaking)
        h.post(2, .notification)
        #expect(h.outcome(2) == "interrupted")
        #expect(h.backend.aborted.isEmpty, "it changes nothing for what speaks")
        #expect(h.playToTheEnd() == ["\(speaking) 1"])
        #expect(!h.began(2))
        h.expectOneTerminalEach([1, 2])
    }

    @Test(
        "a notification is dropped at once while anything else waits",
        arguments: [
            PostKind.important, .message, .text, .nativeDefault, .nativeQueued, .nativeLow,
        ])
    func notificationDroppedWhileWaiting(waiting: PostKind) {
        let h = Harness()
        h.speak(1, .notification)
        // The waiting post arrives while a notification speaks (a native low post waits behind
        // it; everything else ends it and waits while its abort is under way).
        h.post(2, waiting)
        h.post(3, .notification)
        #expect(h.outcome(3) == "interrupted")
        #expect(!h.began(3))
        #expect(h.playToTheEnd().last == "\(waiting) 2")
        h.expectOneTerminalEach([1, 2, 3])
    }

    @Test(
        "a notification is dropped at once while a progress waits, and the speaking notification is not replaced by it")
    func notificationDroppedWhileProgressWaits() {
        let h = Harness()
        h.speak(1, .notification)
        h.post(2, .progress) // waits behind the speaking notification
        h.post(3, .notification)
        #expect(h.outcome(3) == "interrupted")
        #expect(h.backend.aborted.isEmpty, "the speaking notification goes on")
        #expect(h.playToTheEnd() == ["notification 1", "progress 2"])
        #expect(!h.began(3))
        #expect([1, 2].map { h.outcome($0) } == ["spoken", "spoken"])
        h.expectOneTerminalEach([1, 2, 3])
    }

    @Test("a newer notification replaces the speaking one, and the waiting one")
    func notificationReplaced() {
        let h = Harness()
        h.speak(1, .notification)
        h.post(2, .notification)
        #expect(h.backend.aborted == [1])
        h.post(3, .notification)
        #expect(h.outcome(2) == "interrupted")
        #expect(h.playToTheEnd() == ["notification 1", "notification 3"])
        #expect(h.outcome(3) == "spoken")
        h.expectOneTerminalEach([1, 2, 3])
    }

    // MARK: progress

    @Test("progress waits behind a speaking progress, the newest only, and the speaking one is not interrupted")
    func progressSeries() {
        let h = Harness()
        h.speak(1, .progress)
        h.post(2, .progress)
        h.post(3, .progress)
        #expect(h.backend.aborted.isEmpty)
        #expect(h.outcome(2) == "interrupted")
        #expect(!h.began(2))
        #expect(h.playToTheEnd() == ["progress 1", "progress 3"])
        #expect(h.outcome(1) == "spoken")
        #expect(h.outcome(3) == "spoken", "the last of the series is spoken")
        h.expectOneTerminalEach([1, 2, 3])
    }

    @Test(
        "progress is dropped at once while anything but a notification or progress speaks",
        arguments: [
            PostKind.important, .message, .text, .nativeHigh, .nativeDefault, .nativeQueued, .nativeLow,
        ])
    func progressDropped(speaking: PostKind) {
        let h = Harness()
        h.speak(1, speaking)
        h.post(2, .progress)
        #expect(h.outcome(2) == "interrupted")
        #expect(!h.began(2))
        #expect(h.playToTheEnd() == ["\(speaking) 1"])
    }

    @Test("progress is dropped at once while anything but a notification or progress waits")
    func progressDroppedWhileWaiting() {
        let h = Harness()
        h.speak(1, .nativeHigh)
        h.post([(2, .message), (3, .progress)])
        #expect(h.outcome(3) == "interrupted")
        #expect(h.playToTheEnd() == ["native high 1", "message 2"])
    }

    // MARK: pause

    @Test(
        "while paused, notification and progress are dropped at once, even with nothing speaking; other posts wait",
        arguments: [PostKind.notification, .progress])
    func pausedDropsDroppables(kind: PostKind) {
        let h = Harness()
        h.control(.pause, .own)
        h.post(1, kind)
        #expect(h.outcome(1) == "interrupted")
        h.post(2, .message)
        #expect(h.outcome(2) == nil)
        h.control(.resume, .own)
        #expect(h.playToTheEnd() == ["message 2"])
        #expect(!h.began(1))
        h.expectOneTerminalEach([1, 2])
    }

    // MARK: native posts

    @Test(
        "every kind that can wait, in one line: high and important first come first served, then an interrupting default, then queued default and message, then text, then low"
    )
    func fullOrder() {
        let h = Harness()
        h.speak(1, .nativeHigh)
        h.post([
            (2, .nativeLow), (3, .message), (4, .nativeQueued), (5, .message), (6, .text), (7, .nativeDefault),
            (8, .nativeHigh), (9, .important),
        ])
        #expect(h.backend.aborted.isEmpty)
        #expect(
            h.playToTheEnd().map { $0.split(separator: " ").last.map(String.init) ?? "" } == [
                "1", "8", "9", "7", "3", "4", "5", "6", "2",
            ])
        h.expectOneTerminalEach(Array(1...9))
    }

    @Test(
        "native posts that interrupt end a speaking message or text; a native low post waits and ends nothing",
        arguments: [
            (PostKind.nativeDefault, PostKind.message), (.nativeDefault, .text), (.nativeHigh, .message),
            (.nativeHigh, .text),
        ])
    func nativeInterrupts(arriving: PostKind, speaking: PostKind) {
        let h = Harness()
        h.speak(1, speaking)
        h.post(2, arriving, from: 2)
        #expect(h.playToTheEnd() == ["\(speaking) 1", "\(arriving) 2"])
        #expect(h.outcome(1) == "interrupted")
        #expect(h.outcome(2, of: 2) == "spoken")
    }

    @Test("a native low post neither ends nor drops a speaking notification; a native queued default post ends it")
    func nativeAgainstNotification() {
        let h = Harness()
        h.speak(1, .notification)
        h.post(2, .nativeLow, from: 2)
        #expect(h.backend.aborted.isEmpty)
        h.post(3, .nativeQueued, from: 2)
        #expect(h.backend.aborted == [1])
        #expect(h.playToTheEnd() == ["notification 1", "native queued default 3", "native low 2"])
        #expect(h.outcome(1) == "interrupted")
    }

    // MARK: controls

    /// Client 1 speaks 1 and has 2 waiting; client 2 has 3 waiting.
    func threeMessages() -> Harness {
        let h = Harness()
        h.speak(1, .message)
        h.post(2, .message)
        h.post(3, .message, from: 2)
        return h
    }

    @Test(
        "stop ends the speaking message of its scope; waiting ones continue",
        arguments: [
            (ClientScope.own, ClientID(1), true), (.own, 2, false), (.all, 2, true), (.client(1), 2, true),
            (.client(2), 1, false),
        ])
    func stop(scope: ClientScope, from asker: ClientID, stopsSpeaking: Bool) {
        let h = threeMessages()
        h.control(.stop, scope, from: asker)
        // Answered at once, before the terminal line of the message it ends (shared/ssip.md §7).
        #expect(h.sink(asker).all.contains(.control(.done(.stop))))
        #expect(h.backend.aborted == (stopsSpeaking ? [1] : []))
        #expect(h.playToTheEnd() == ["message 1", "message 2", "message 3"])
        h.expectAnswered(asker, beforeTerminalOf: stopsSpeaking ? 1 : nil)
        #expect(h.outcome(1) == (stopsSpeaking ? "cancelled" : "spoken"))
        #expect(h.outcome(2) == "spoken" && h.outcome(3, of: 2) == "spoken")
        h.expectOneTerminalEach([1, 2])
        h.expectOneTerminalEach([3], of: 2)
    }

    @Test(
        "cancel ends the speaking and waiting messages of its scope, an important one too",
        arguments: [
            (ClientScope.own, ClientID(1), ["cancelled", "cancelled", "spoken"]),
            (.own, 2, ["spoken", "spoken", "cancelled"]),
            (.all, 2, ["cancelled", "cancelled", "cancelled"]),
            (.client(2), 1, ["spoken", "spoken", "cancelled"]),
            (.client(1), 2, ["cancelled", "cancelled", "spoken"]),
        ])
    func cancel(scope: ClientScope, from asker: ClientID, outcomes: [String]) {
        let h = Harness()
        h.speak(1, .important)
        h.post(2, .message)
        h.post(3, .message, from: 2)
        h.control(.cancel, scope, from: asker)
        let endsSpeaking = outcomes[0] == "cancelled"
        #expect(h.sink(asker).all.contains(.control(.done(.cancel))))
        _ = h.playToTheEnd()
        h.expectAnswered(asker, beforeTerminalOf: endsSpeaking ? 1 : nil)
        #expect([h.outcome(1), h.outcome(2), h.outcome(3, of: 2)] == outcomes)
        h.expectOneTerminalEach([1, 2])
        h.expectOneTerminalEach([3], of: 2)
    }

    @Test(
        "a control naming a connection that does not exist answers unknownClient and changes nothing",
        arguments: SpeechControl.allCases)
    func unknownClient(control: SpeechControl) {
        let h = threeMessages()
        h.control(control, .client(99))
        #expect(h.sink(1).all.last == .control(.unknownClient(control)))
        #expect(h.backend.aborted.isEmpty)
        #expect(h.backend.holds.withLock { $0 }.isEmpty)
        #expect(h.playToTheEnd() == ["message 1", "message 2", "message 3"])
    }
}
