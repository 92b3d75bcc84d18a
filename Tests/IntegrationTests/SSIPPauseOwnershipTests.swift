// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import Glibc
import TestSupport
import Testing

/// A pause is owned by the connection that made it and ends when that connection closes, however
/// it closes (SIGKILL here): its paused messages end, and other connections' messages are spoken
/// to their end. Real clients: python3-speechd, spd-say, a native connection.
@Suite("SSIP and native: a pause ends with the connection that made it", .daemonTimeLimit, .onBlockingThreads)
struct SSIPPauseOwnershipTests {
    static let longText = """
        This first sentence is long enough to be paused in its middle by the client that sent it. \
        And this second sentence would still be waiting to be spoken when that client goes away.
        """
    static let otherText = "The build finished without errors."

    /// `seq`'s recording is the whole of `text`: as long as a native post of the same text in the
    /// same daemon, within 2 % (a second rendering in one process differs by a few samples), and
    /// not silent.
    static func expectHeardToTheEnd(_ daemon: DaemonProcess, seq: Int, text: String, watcher: LineClient, id: Int = 900)
        throws
    {
        let heard = WAVFile.trimmed(try daemon.wavSamples(seq: seq))
        watcher.send(announce(id, text))
        let queued = try #require(watcher.waitFor("queued", id: id))
        let finished = try #require(watcher.waitForTerminal(id: id, timeout: 30))
        #expect(finished["success"] == .bool(true), "\(finished.text)")
        let reference = WAVFile.trimmed(try daemon.wavSamples(seq: try #require(queued["seq"]?.intValue)))
        #expect(!reference.isEmpty)
        let difference = abs(heard.count - reference.count)
        #expect(
            Double(difference) <= 0.02 * Double(reference.count), "heard \(heard.count) samples of \(reference.count)")
        #expect((heard.map { abs(Int($0)) }.max() ?? 0) > 1_000, "heard, not silent")
    }

    @Test(
        "python3-speechd: client A pauses its message and is SIGKILLed; A's message ends, and client B's message is heard to the end"
    )
    func pythonClientKilledWhilePaused() throws {
        let ssip = try SSIPDaemon()
        let watcher = try speechWatcher(ssip.daemon)
        let a = try SpeechdDriver(ssip)
        try a.connect("a")
        try a.call("set_priority", client: "a", .string("message"))
        let paused = try a.speak(Self.longText, client: "a", tag: "long")
        try #require(a.waitForCallback("begin", tag: "long", client: "a") != nil)
        try a.call("pause", client: "a")
        try #require(a.waitForCallback("pause", tag: "long", client: "a") != nil)
        a.kill()
        // A's message ends (cancelled: nobody can resume it); A, gone, is owed no event.
        let ended = try #require(
            watcher.waitForSpeech("finished", seq: paused, timeout: 20), "A's paused message never ended")
        #expect(ended["success"] == .bool(false) && ended["reason"] == .string("cancelled"), "\(ended.text)")

        let b = try SpeechdDriver(ssip)
        try b.connect("b")
        let spoken = try b.speak(Self.otherText, client: "b", tag: "other")
        #expect(
            b.waitForTerminalCallback(tag: "other", client: "b", timeout: 20) == "end",
            "B was not heard after A died paused")
        #expect(b.callbacks(tag: "other", client: "b") == ["begin", "end"])
        try Self.expectHeardToTheEnd(ssip.daemon, seq: spoken, text: Self.otherText, watcher: watcher)
        _ = b.finish()
    }

    @Test(
        "spd-say -w killed while another client holds its message (PAUSE <its id>): its message ends, and the next is heard to the end",
        .enabled(if: SSIPClientProcess.spdSay != nil, SSIPClientProcess.spdSayMissing)
    )
    func spdSayKilledWhilePaused() throws {
        let ssip = try SSIPDaemon()
        let watcher = try speechWatcher(ssip.daemon)
        let controller = try ssip.connectSSIP()
        #expect(controller.command("SET self CLIENT_NAME \"unknown:test:controller\"")?.code == 208)
        #expect(controller.command("SET self NOTIFICATION all on")?.code == 220)
        let controllerID = try #require(controller.command("HISTORY GET CLIENT_ID")?.data.first.flatMap { Int($0) })
        let tool = try SSIPClientProcess.start(
            try #require(SSIPClientProcess.spdSay), ["-w", Self.longText], daemon: ssip)
        tool.finishInput()
        let started = try #require(watcher.waitFor { $0.event == "speech" && $0["state"] == .string("started") })
        #expect(started["client"]?.stringValue?.hasSuffix(":spd-say:main") == true, "\(started.text)")
        let seq = try #require(started["seq"]?.intValue)
        // spd-say's connection is the one opened right after the controller's.
        #expect(controller.command("PAUSE \(controllerID + 1)")?.code == 211)
        watcher.send(#"{"op":"status","id":1}"#)
        #expect(try #require(watcher.waitFor("ok", id: 1))["paused"] == .bool(true), "spd-say's message is held")
        Glibc.kill(tool.process.processIdentifier, SIGKILL)
        _ = tool.finish(timeout: 10)
        let ended = try #require(
            watcher.waitForSpeech("finished", seq: seq, timeout: 20), "spd-say's paused message never ended")
        #expect(ended["reason"] == .string("cancelled"), "\(ended.text)")

        let spoken = try #require(controller.speak(Self.otherText).messageID)
        #expect(
            controller.waitForTerminal(messageID: spoken, timeout: 20)?.code == 702, "the next message was not spoken")
        try Self.expectHeardToTheEnd(ssip.daemon, seq: spoken, text: Self.otherText, watcher: watcher)
    }

    @Test(
        "a native client pauses and closes: its post ends, an SSIP message is heard; announcectl pause outlives its connection"
    )
    func nativeClientClosedWhilePaused() throws {
        let ssip = try SSIPDaemon()
        let watcher = try speechWatcher(ssip.daemon)
        var native: LineClient? = try ssip.daemon.connect()
        native?.send(announce(1, Self.longText))
        let queued = try #require(native?.waitFor("queued", id: 1))
        let seq = try #require(queued["seq"]?.intValue)
        _ = try #require(native?.waitFor("started", id: 1))
        native?.send(#"{"op":"pause","id":2}"#)
        _ = try #require(native?.waitFor("paused", id: 1))
        native = nil // closes the socket, as a killed process's does
        let ended = try #require(
            watcher.waitForSpeech("finished", seq: seq, timeout: 20), "the paused post never ended")
        #expect(ended["reason"] == .string("cancelled"), "\(ended.text)")

        let ssipClient = try ssip.connectSSIP()
        #expect(ssipClient.command("SET self NOTIFICATION all on")?.code == 220)
        let spoken = try #require(ssipClient.speak(Self.otherText).messageID)
        #expect(ssipClient.waitForTerminal(messageID: spoken, timeout: 20)?.code == 702)
        try Self.expectHeardToTheEnd(ssip.daemon, seq: spoken, text: Self.otherText, watcher: watcher)

        // The user's own pause is no client's: it lasts until resume.
        #expect(try announcectl(ssip.daemon, "pause").status == 0)
        watcher.send(#"{"op":"status","id":3}"#)
        #expect(try #require(watcher.waitFor("ok", id: 3))["paused"] == .bool(true))
        #expect(try announcectl(ssip.daemon, "resume").status == 0)
        watcher.send(#"{"op":"status","id":4}"#)
        #expect(try #require(watcher.waitFor("ok", id: 4))["paused"] == .bool(false))
    }

    @Test(
        "PAUSE all from a SIGKILLed python3-speechd client: the hold ends, the held message resumes (705), the next is heard to the end"
    )
    func pauseAllEndsWithItsOwner() throws {
        let ssip = try SSIPDaemon()
        let watcher = try speechWatcher(ssip.daemon)
        let speaker = try ssip.connectSSIP()
        #expect(speaker.command("SET self NOTIFICATION all on")?.code == 220)
        let first = try #require(speaker.speak(Self.longText).messageID)
        try #require(speaker.waitForEvent(701, messageID: first) != nil)
        let a = try SpeechdDriver(ssip)
        try a.connect("a")
        try a.call("pause", client: "a", .string("all"))
        try #require(speaker.waitForEvent(704, messageID: first) != nil)
        a.kill()
        #expect(
            speaker.waitForEvent(705, messageID: first, timeout: 20) != nil, "the hold of the killed client did not end"
        )
        #expect(speaker.waitForTerminal(messageID: first, timeout: 30)?.code == 702)
        let second = try #require(speaker.speak(Self.otherText).messageID)
        #expect(speaker.waitForTerminal(messageID: second, timeout: 20)?.code == 702)
        try Self.expectHeardToTheEnd(ssip.daemon, seq: second, text: Self.otherText, watcher: watcher)
    }

    @Test(
        "a BLOCK left open by a client that disconnects holds nothing: its messages end and another client's message is heard to the end"
    )
    func blockLeftOpen() throws {
        let ssip = try SSIPDaemon()
        let watcher = try speechWatcher(ssip.daemon)
        let a = try ssip.connectSSIP()
        #expect(a.command("BLOCK BEGIN")?.code == 260)
        let first = try #require(a.speak(Self.longText).messageID)
        let second = try #require(a.speak(Self.otherText).messageID)
        _ = try #require(watcher.waitForSpeech("started", seq: first, timeout: 20))
        a.disconnect()
        let b = try ssip.connectSSIP()
        #expect(b.command("SET self NOTIFICATION all on")?.code == 220)
        let spoken = try #require(b.speak(Self.otherText).messageID)
        #expect(
            b.waitForTerminal(messageID: spoken, timeout: 30)?.code == 702,
            "B's message was not spoken after A left its block open")
        for seq in [first, second] {
            #expect(watcher.waitForSpeech("finished", seq: seq, timeout: 10) != nil, "A's message \(seq) ended")
        }
        try Self.expectHeardToTheEnd(ssip.daemon, seq: spoken, text: Self.otherText, watcher: watcher)
    }

    @Test(
        "python3-speechd set_output_module('flite'): 216, GET OUTPUT_MODULE answers flite, its message is heard, logged once"
    )
    func unknownOutputModuleFallsBack() throws {
        let ssip = try SSIPDaemon()
        let watcher = try speechWatcher(ssip.daemon)
        let driver = try SpeechdDriver(ssip)
        try driver.connect()
        try driver.call("set_output_module", .string("flite"))
        try driver.call("set_output_module", .string("flite"))
        #expect(try driver.command("GET", "OUTPUT_MODULE").data == ["flite"])
        let spoken = try driver.speak(Self.otherText, tag: "flite")
        #expect(driver.waitForTerminalCallback(tag: "flite", timeout: 20) == "end")
        #expect(driver.callbacks(tag: "flite") == ["begin", "end"])
        try Self.expectHeardToTheEnd(ssip.daemon, seq: spoken, text: Self.otherText, watcher: watcher)
        let line = "an output module announced does not have"
        #expect(ssip.daemon.waitForStderr(containing: line, timeout: 10), "the fallback is logged")
        #expect(
            !ssip.daemon.waitForStderr(containing: line, count: 2, timeout: 1), "once per connection, not once per SET")
        try driver.call("close")
        #expect(driver.finish() == 0, "\(driver.stderrText)")
    }
}
