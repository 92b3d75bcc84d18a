// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceClient
import BlockingThreads
import Foundation
import TestSupport
import Testing

@Suite("AnnounceClient: publishing a screen and handling the user's actions", .serialized)
struct ClientScreenTests {
    // Not @MainActor: the navigator's socket reads block, so they go to a blocking thread (see
    // BlockingThreads); posts that must come from the main thread hop there themselves.
    @Test("action callbacks run on the main queue, and update changes the published element")
    func actionCallbacks() async throws {
        let daemon = try await DaemonProcess.start()
        let announcer = Announcer(socketPath: daemon.socketPath, clientName: "timer")
        let (calls, continuation) = AsyncStream.makeStream(of: String.self)
        announcer.onActivate { continuation.yield("activate \($0), main: \(MainThread.isMainQueue)") }
        announcer.onIncrement { continuation.yield("increment \($0), main: \(MainThread.isMainQueue)") }
        announcer.onDecrement { continuation.yield("decrement \($0), main: \(MainThread.isMainQueue)") }
        announcer.onCustomAction { continuation.yield("custom \($0) \($1), main: \(MainThread.isMainQueue)") }
        announcer.onEscape { continuation.yield("escape, main: \(MainThread.isMainQueue)") }
        announcer.onMagicTap { continuation.yield("magic tap, main: \(MainThread.isMainQueue)") }
        let elements = [
            Element(id: "time", label: "Time", value: "5 seconds", traits: [.adjustable]),
            Element(id: "reset", label: "Reset", traits: [.button], actions: ["Reset to 1 minute"]),
        ]
        let shown = try await withTimeout("the screen post") {
            await withCheckedContinuation { done in
                Task { @MainActor in
                    announcer.screenChanged(
                        elements: elements, rotors: [CustomRotor(name: "Controls", elements: ["reset"])]
                    ) { done.resume(returning: $0) }
                }
            }
        }
        #expect(shown == .spoken)

        let keys = try daemon.connect()
        var id = 0
        func press(_ action: String, _ extra: String = "") async -> JSONValue? {
            id += 1
            let id = id
            return await onBlockingThread { keys.navigate(action, extra, id: id) }
        }
        var iterator = calls.makeAsyncIterator()
        #expect(await press("first")?["focus"] == .string("time"))
        for (action, expected) in [
            ("increment", "increment time, main: true"), ("decrement", "decrement time, main: true"),
            ("activate", "activate time, main: true"), ("escape", "escape, main: true"),
            ("magic-tap", "magic tap, main: true"),
        ] {
            #expect(await press(action)?.event == "ok")
            #expect(await iterator.next() == expected)
        }
        #expect(await press("rotor-select", #","rotor":"Controls""#)?["rotor"] == .string("Controls"))
        #expect(await press("rotor-next")?["focus"] == .string("reset"))
        #expect(await press("custom", #","name":"Reset to 1 minute""#)?.event == "ok")
        #expect(await iterator.next() == "custom reset Reset to 1 minute, main: true")

        try await announcer.update(ElementUpdate(id: "time", value: .some("1 minute")))
        await #expect(throws: AnnouncerError.self) {
            try await announcer.update(ElementUpdate(id: "nope", value: .some("1")))
        }
        #expect(await press("first")?["focus"] == .string("time"))
        keys.send(#"{"op":"subscribe","id":90,"events":["speech"]}"#)
        _ = await onBlockingThread { keys.waitFor("ok", id: 90) }
        #expect(await press("read")?.event == "ok")
        let read = await onBlockingThread { keys.waitFor { $0["state"] == "started" && $0["client"] == "navigation" } }
        #expect(read?["text"] == .string("Time, 1 minute, adjustable"))
        withExtendedLifetime(daemon) {}
    }

    @Test("after the daemon restarts, the announcer publishes its screen again")
    func republish() async throws {
        let first = try await DaemonProcess.start()
        let announcer = Announcer(socketPath: first.socketPath, clientName: "menu")
        await MainActor.run { announcer.screenChanged(elements: [Element(id: "soup", label: "Soup")]) }
        let statuses = announcer.statusChanges()
        _ = try await statuses.first("the first daemon's status") { $0.isSpeechRunning }
        #expect(await onBlockingThread { first.stop() } == 0)
        _ = try await statuses.first("the daemon to be gone") { $0 == .unavailable }
        let second = try await DaemonProcess.start(socketPath: first.socketPath)
        _ = try await statuses.first("the new daemon's status") { $0.isSpeechRunning }
        let keys = try second.connect()
        // The announcer's status request follows the republished screen on its connection, so
        // the daemon has the screen once that status has been answered.
        let answer = await onBlockingThread { keys.roundTrip(id: 1) }
        #expect(answer?["screen"] == .string("menu") && answer?["stops"] == .integer(1))
        withExtendedLifetime(first) {}
    }
}
