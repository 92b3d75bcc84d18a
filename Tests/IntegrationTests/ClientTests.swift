// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceClient
import BlockingThreads
import Foundation
import TestSupport
import Testing

/// About 5 seconds of speech: long enough to be still speaking when a test reacts to its
/// `started`. The reaction needs only a thread of the cooperative pool, and no test blocks those
/// (blocking test code runs on `BlockingThreads`), so it comes within a fraction of a second even
/// under the full suite.
private let longText =
    "This is a rather long announcement that will certainly be interrupted before it reaches its end."

/// Waits until `watcher` reports that a post with `text` started.
private func started(_ text: String, in events: AsyncStream<Event>) async throws {
    _ = try await events.first("\"\(text)\" to start") { event in
        if case .speech(.started(_, _, let started, _)) = event { return started == text }
        return false
    }
}

@Suite("AnnounceClient against the real daemon")
struct ClientTests {
    @Test("spoken, with the async form")
    func spoken() async throws {
        let daemon = try await DaemonProcess.start()
        let announcer = Announcer(socketPath: daemon.socketPath, clientName: "tests")
        let result = try await withTimeout("the result") { await announcer.announce("Download complete") }
        #expect(result == .spoken)
        #expect(result.isSpoken)
    }

    @Test("history(limit:) answers the newest entries, and events([.history]) delivers each as it is kept")
    func history() async throws {
        let daemon = try await DaemonProcess.start()
        let announcer = Announcer(socketPath: daemon.socketPath, clientName: "tests")
        let events = announcer.events([.history])
        _ = try await announcer.status() // answered after the subscription took effect
        #expect(try await announcer.history().isEmpty)
        #expect(try await withTimeout("the first result") { await announcer.announce("First") } == .spoken)
        #expect(try await withTimeout("the second result") { await announcer.announce("Second") } == .spoken)
        let kept = try await events.first("the second entry") { event in
            if case .history(let entry) = event { return entry.text == "Second" }
            return false
        }
        let newest = try await announcer.history(limit: 1)
        #expect(newest.count == 1)
        #expect(Event.history(try #require(newest.first)) == kept)
        let all = try await announcer.history()
        #expect(all.map(\.text) == ["Second", "First"])
        #expect(all.allSatisfy { $0.client == "tests" && $0.ending == .spoken(spokenChars: $0.text.count) })
    }

    @Test("interrupted by a newer post, with how far it got")
    func interrupted() async throws {
        let daemon = try await DaemonProcess.start()
        let announcer = Announcer(socketPath: daemon.socketPath)
        let watcher = Announcer(socketPath: daemon.socketPath)
        let events = watcher.events([.speech])
        _ = try await watcher.status() // answered after the subscription took effect
        async let long = announcer.announce(longText)
        try await started(longText, in: events)
        #expect(await announcer.announce("Next") == .spoken)
        guard case .interrupted(let spoken, let total) = await long else {
            Issue.record("expected interrupted, got \(await long)")
            return
        }
        #expect(total == longText.unicodeScalars.count)
        #expect(spoken < total)
    }

    @Test("cancelled by stop, and by cancelling the calling task")
    func cancelled() async throws {
        let daemon = try await DaemonProcess.start()
        let announcer = Announcer(socketPath: daemon.socketPath)
        let events = announcer.events([.speech])
        _ = try await announcer.status()
        async let long = announcer.announce(longText)
        try await started(longText, in: events)
        try await announcer.stop()
        let stopped = await long
        #expect(stopped == .cancelled, "\(stopped)")

        let task = Task { await announcer.announce(longText) }
        try await started(longText, in: events)
        task.cancel()
        let cancelled = try await withTimeout("the cancelled task") { await task.value }
        #expect(cancelled == .cancelled, "\(cancelled)")
    }

    @Test("muted while speech is off; the status stream and isSpeechRunning follow mute and unmute")
    func mutedAndStatus() async throws {
        let daemon = try await DaemonProcess.start()
        let announcer = Announcer(socketPath: daemon.socketPath)
        let controller = Announcer(socketPath: daemon.socketPath)
        let statuses = announcer.statusChanges()
        _ = try await statuses.first("speech to be running") { $0.isSpeechRunning }
        #expect(announcer.isSpeechRunning)

        try await controller.setMuted(true)
        _ = try await statuses.first("the muted status") { !$0.isSpeechRunning }
        #expect(!announcer.isSpeechRunning)
        #expect(await announcer.announce("Nobody hears this") == .muted)

        try await controller.setMuted(false)
        _ = try await statuses.first("the unmuted status") { $0.isSpeechRunning }
        #expect(announcer.isSpeechRunning)
        #expect(await announcer.announce("Back") == .spoken)
    }

    @Test("dropped: too many posts waiting")
    func queueFull() async throws {
        let daemon = try await DaemonProcess.start()
        let announcer = Announcer(socketPath: daemon.socketPath)
        var low = SpeechOptions()
        low.priority = .low
        let options = low
        let results = await withTaskGroup(of: EnqueueResult.self) { group in
            for index in 1...300 { group.addTask { await announcer.enqueue(.announce("p\(index)", options: options)) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        // At most 256 posts per connection wait or speak; the first may already have ended.
        let dropped = results.filter { $0 == .refused(.dropped(.queueFull)) }.count
        let queued = results.count { if case .queued = $0 { return true } else { return false } }
        #expect(dropped > 0)
        #expect(queued >= 256)
        #expect(queued + dropped == 300)
        try await announcer.stop()
        #expect(AnnouncementResult.dropped(.queueFull).description == "dropped: too many posts waiting")
    }

    @Test("failed: the daemon's error message")
    func failed() async throws {
        let daemon = try await DaemonProcess.start()
        let announcer = Announcer(socketPath: daemon.socketPath)
        var options = SpeechOptions()
        options.lang = "1x"
        guard case .failed(let message) = await announcer.announce("Hi", options: options) else {
            Issue.record("expected failed")
            return
        }
        #expect(message.contains("`lang`"))
        await #expect(throws: AnnouncerError.self) {
            try await announcer.change(SettingsChange(voice: "no-such-voice"))
        }
    }

    @Test("no daemon: unavailable at once, naming the socket; the completion runs on the main queue")
    func unavailable() async throws {
        let path = DaemonProcess.makeTemporaryDirectory().appendingPathComponent("none.sock").path
        let announcer = Announcer(socketPath: path)
        guard case .unavailable(let message) = await announcer.announce("Hi") else {
            Issue.record("expected unavailable")
            return
        }
        #expect(message.contains(path) && message.contains("announced &"))
        let (result, onMain) = try await withTimeout("the completion") {
            await withCheckedContinuation { continuation in
                announcer.announce("Hi") { continuation.resume(returning: ($0, MainThread.isMainQueue)) }
            }
        }
        #expect(onMain)
        #expect(result == .unavailable(message))
        await #expect(throws: AnnouncerError.unavailable(socketPath: path, reason: "no such file or directory")) {
            try await announcer.status()
        }
        #expect(!announcer.isSpeechRunning)
    }

    @Test("the completion form runs its handler on the main queue with the result")
    @MainActor
    func completionOnMain() async throws {
        let daemon = try await DaemonProcess.start()
        let announcer = Announcer(socketPath: daemon.socketPath)
        #expect(MainThread.isMainQueue)
        let (result, onMain) = try await withTimeout("the completion") {
            await withCheckedContinuation { continuation in
                Task { @MainActor in
                    announcer.announce("From the main thread") {
                        continuation.resume(returning: ($0, MainThread.isMainQueue))
                    }
                }
            }
        }
        #expect(result == .spoken)
        #expect(onMain)
    }

    @Test("a post from a background thread is dropped off-main, like UIKit")
    func offMain() async throws {
        let daemon = try await DaemonProcess.start()
        let announcer = Announcer(socketPath: daemon.socketPath)
        let result = try await withTimeout("the completion") {
            await withCheckedContinuation { continuation in
                Thread.detachNewThread {
                    precondition(!Thread.isMainThread && !MainThread.isMainQueue)
                    announcer.announce("From a background thread") { continuation.resume(returning: $0) }
                }
            }
        }
        #expect(result == .dropped(.offMain))
        #expect(result.description == "dropped: posted off the main thread")
    }

    @Test("reconnects after the daemon restarts on the same socket; the status stream follows")
    func reconnect() async throws {
        let first = try await DaemonProcess.start()
        let announcer = Announcer(socketPath: first.socketPath)
        let statuses = announcer.statusChanges()
        #expect(await announcer.announce("Before") == .spoken)
        _ = try await statuses.first("the first status") { $0.isSpeechRunning }

        _ = await onBlockingThread { first.stop() }
        _ = try await statuses.first("the daemon to be gone") { $0 == .unavailable }
        guard case .unavailable = await announcer.announce("Nobody listens") else {
            Issue.record("expected unavailable while the daemon is down")
            return
        }
        let second = try await DaemonProcess.start(socketPath: first.socketPath)
        _ = try await statuses.first("the new daemon's status") { $0.isSpeechRunning }
        #expect(await announcer.announce("After") == .spoken)
        withExtendedLifetime(first) {}
        withExtendedLifetime(second) {}
    }

    @Test("focus callbacks run on the main queue as this announcer's element gains and loses the focus")
    @MainActor
    func focusCallbacks() async throws {
        let daemon = try await DaemonProcess.start()
        let announcer = Announcer(socketPath: daemon.socketPath)
        let (changes, continuation) = AsyncStream.makeStream(of: String.self)
        announcer.onFocus("save") { continuation.yield("save focused, main: \(MainThread.isMainQueue)") }
        announcer.onLoseFocus("save") { continuation.yield("save lost focus, main: \(MainThread.isMainQueue)") }
        let save = Element(id: "save", label: "Save", traits: [.button], hint: "Saves the document.")
        let spoken = try await withTimeout("the focus post") {
            await withCheckedContinuation { done in
                Task { @MainActor in announcer.focus(save) { done.resume(returning: $0) } }
            }
        }
        #expect(spoken == .spoken)
        #expect(try await changes.first("the focus callback") { _ in true } == "save focused, main: true")
        announcer.screenChanged(.element(Element(id: "title", label: "Inbox", traits: [.header])))
        #expect(try await changes.first("the lose-focus callback") { _ in true } == "save lost focus, main: true")
    }
}
