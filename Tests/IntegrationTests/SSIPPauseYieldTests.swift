// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import TestSupport
import Testing

/// A client that pauses its own speaking message (`PAUSE self`) and stays connected holds only
/// its own messages, as in speech-dispatcher: the paused message is set aside, another client's
/// message is heard meanwhile, and on `RESUME` the paused message continues from where it
/// stopped, as the same message. Real python3-speechd clients, checked in the recording.
@Suite(
    "SSIP: a message paused by its own client gives way to other clients' messages", .daemonTimeLimit,
    .onBlockingThreads)
struct SSIPPauseYieldTests {
    static let longText = """
        This first sentence is long enough to be paused in its middle by the client that sent it. \
        And this second sentence is still to be spoken when that client resumes its message later on.
        """
    static let otherText = "The build finished without errors."

    @Test("python3-speechd: A pauses itself and stays; B is heard to the end; A resumes from where it stopped, one end")
    func pausedMessageGivesWay() throws {
        let ssip = try SSIPDaemon()
        let watcher = try speechWatcher(ssip.daemon)
        let a = try SpeechdDriver(ssip)
        try a.connect("a")
        try a.call("set_priority", client: "a", .string("message"))
        let paused = try a.speak(Self.longText, client: "a", tag: "long")
        try #require(a.waitForCallback("begin", tag: "long", client: "a") != nil)
        // Two seconds of A's message are heard before it pauses.
        try #require(ssip.daemon.waitForAudio(seq: paused, samples: 44_100), "A's message was not heard")
        try a.call("pause", client: "a")
        try #require(a.waitForCallback("pause", tag: "long", client: "a") != nil)

        let b = try SpeechdDriver(ssip)
        try b.connect("b")
        try b.call("set_priority", client: "b", .string("message"))
        let spoken = try b.speak(Self.otherText, client: "b", tag: "other")
        #expect(
            b.waitForTerminalCallback(tag: "other", client: "b", timeout: 20) == "end",
            "B was not heard while A stayed paused")
        #expect(b.callbacks(tag: "other", client: "b") == ["begin", "end"])
        try SSIPPauseOwnershipTests.expectHeardToTheEnd(
            ssip.daemon, seq: spoken, text: Self.otherText, watcher: watcher)
        // What was heard of A's message before it gave way (its recording is made again when it continues).
        let before = WAVFile.trimmed(try ssip.daemon.wavSamples(seq: paused))
        #expect(a.callbacks(tag: "long", client: "a") == ["begin", "pause"], "A's message is still paused, not ended")

        try a.call("resume", client: "a")
        #expect(
            a.waitForTerminalCallback(tag: "long", client: "a", timeout: 30) == "end",
            "A's message did not continue to its end")
        #expect(
            a.callbacks(tag: "long", client: "a") == ["begin", "pause", "resume", "end"],
            "one begin and one end, as one message")
        let after = WAVFile.trimmed(try ssip.daemon.wavSamples(seq: paused))

        // The whole text, rendered in the same daemon.
        watcher.send(announce(900, Self.longText))
        let queued = try #require(watcher.waitFor("queued", id: 900))
        #expect(try #require(watcher.waitForTerminal(id: 900, timeout: 30))["success"] == .bool(true))
        let whole = WAVFile.trimmed(try ssip.daemon.wavSamples(seq: try #require(queued["seq"]?.intValue))).count
        print(
            "pause-yield: \(before.count) samples heard before giving way, \(after.count) after RESUME, whole text \(whole)"
        )
        #expect(before.count >= 44_100 / 2, "heard \(before.count) samples before it gave way")
        #expect(
            after.count < whole * 85 / 100,
            "continued with \(after.count) samples of \(whole): the rest, not the start again")
        #expect(after.count > whole * 10 / 100, "continued with \(after.count) samples of the whole \(whole)")
        // The rest begins at the word that was speaking, so the two parts make the whole, give or take that word.
        let parts = before.count + after.count
        #expect(
            parts >= whole * 90 / 100 && parts <= whole * 115 / 100,
            "\(before.count) + \(after.count) samples, whole \(whole)")
        #expect((after.map { abs(Int($0)) }.max() ?? 0) > 1_000, "heard, not silent")
        try a.call("close", client: "a")
        _ = a.finish()
        _ = b.finish()
    }

    @Test(
        "SSML: a message set aside continues after the last mark reached, inside its prosody; no mark is repeated, one 701, one 702"
    )
    func pausedSSMLContinuesAfterItsLastMark() throws {
        let ssip = try SSIPDaemon()
        let a = try ssip.connectSSIP()
        let b = try ssip.connectSSIP()
        for client in [a, b] {
            #expect(client.command("SET self NOTIFICATION all on")?.code == 220)
            #expect(client.command("SET self PRIORITY message")?.code == 202)
        }
        #expect(a.command("SET self SSML_MODE on")?.code == 219)
        let names = (1...8).map { "m\($0)" }
        let sentences = names.map {
            "<mark name=\"\($0)\"/>Sentence \($0.dropFirst()) of the paused message is spoken here."
        }
        let ssml = "<speak><prosody rate=\"fast\">" + sentences.joined(separator: " ") + "</prosody></speak>"
        let first = try #require(a.speak(ssml).messageID)
        // Wait until the third mark is reached, then pause.
        for _ in 1...3 { try #require(a.waitForEvent(700, messageID: first) != nil, "A's marks were not reported") }
        #expect(a.command("PAUSE self")?.code == 211)
        try #require(a.waitForEvent(704, messageID: first) != nil)

        let other = try #require(b.speak(Self.otherText).messageID)
        #expect(b.waitForTerminal(messageID: other, timeout: 20)?.code == 702, "B was not heard while A stayed paused")
        #expect(a.events(messageID: first).allSatisfy { $0.code != 702 && $0.code != 703 }, "A's message did not end")

        #expect(a.command("RESUME self")?.code == 212)
        #expect(
            a.waitForTerminal(messageID: first, timeout: 30)?.code == 702, "A's message did not continue to its end")
        let events = a.events(messageID: first)
        #expect(events.compactMap(\.mark) == names, "each mark once, in order: \(events.map(\.description))")
        #expect(events.map(\.code).filter { $0 != 700 } == [701, 704, 705, 702], "\(events.map(\.description))")
        let resumedAt = try #require(events.firstIndex { $0.code == 705 })
        #expect(
            events[..<resumedAt].compactMap(\.mark).count >= 3,
            "the marks heard before the pause were not reported again")
    }

    @Test(
        "python3-speechd: A's message set aside while B speaks; A is SIGKILLed: A's message ends cancelled, once, and speech goes on"
    )
    func setAsideMessageEndsWithItsClient() throws {
        let ssip = try SSIPDaemon()
        let watcher = try speechWatcher(ssip.daemon)
        let a = try SpeechdDriver(ssip)
        try a.connect("a")
        let paused = try a.speak(Self.longText, client: "a", tag: "long")
        try #require(a.waitForCallback("begin", tag: "long", client: "a") != nil)
        try a.call("pause", client: "a")
        try #require(a.waitForCallback("pause", tag: "long", client: "a") != nil)
        let b = try SpeechdDriver(ssip)
        try b.connect("b")
        let spoken = try b.speak(Self.otherText, client: "b", tag: "other")
        #expect(
            b.waitForTerminalCallback(tag: "other", client: "b", timeout: 20) == "end",
            "B was not heard while A stayed paused")
        a.kill()
        let ended = try #require(
            watcher.waitForSpeech("finished", seq: paused, timeout: 20), "A's message set aside never ended")
        #expect(ended["reason"] == .string("cancelled"), "\(ended.text)")
        let next = try b.speak(Self.otherText, client: "b", tag: "next")
        #expect(b.waitForTerminalCallback(tag: "next", client: "b", timeout: 20) == "end")
        try SSIPPauseOwnershipTests.expectHeardToTheEnd(ssip.daemon, seq: next, text: Self.otherText, watcher: watcher)
        #expect(watcher.speechStates.filter { $0 == "finished \(paused)" }.count == 1, "\(watcher.speechStates)")
        #expect(watcher.speechStates.contains("finished \(spoken)"))
        _ = b.finish()
    }
}
