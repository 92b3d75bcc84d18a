// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import Glibc
import TestSupport
import Testing

/// The test voice's option fragment for `announce`.
private let joe = #","voice":"en_us-joe-medium""#

/// Issue 32: one post whose language runs switch engines, English in the Piper test voice and
/// Russian in espeak-ng, through the real daemon and both real helpers, checked in the recorded
/// audio. The next run is synthesized while the one before it plays (logged `synthesizing ahead`);
/// a stop, a pause and a crash in either run keep the post one post.
@Suite(
    "Daemon: a post switching between Piper and espeak-ng", .onBlockingThreads,
    .enabled(
        if: FetchedPiper.isFetched,
        "the Piper engine or its test voice is not fetched: run scripts/fetch-piper-engine.sh")
)
struct EngineSwitchTests {
    /// "The file Привет was saved" in its runs: Piper, espeak-ng's Russian, Piper.
    private let runs = ["The file ", "Привет ", "was saved"]
    private var text: String { runs.joined() }

    /// A daemon with the Piper voice installed, renderings noiseless and nothing cached (every
    /// post goes to its helper).
    private func switchingDaemon() throws -> DaemonProcess {
        try piperDaemon(["ANNOUNCED_SPEECH_CACHE": "0"])
    }

    /// `text` spoken alone by the Piper voice, as post `id`: that engine's own rendering of it
    /// (sherpa-onnx's, as PiperOwnRenderingTests checks).
    private func piperRendering(_ text: String, id: Int, _ client: LineClient, _ daemon: DaemonProcess) throws
        -> [Int16]
    {
        client.send(announce(id, text, joe))
        let finished = try #require(client.waitForTerminal(id: id, timeout: 90))
        #expect(finished["success"] == .bool(true), "\(finished.text)")
        return try daemon.wavSamples(seq: try #require(finished["seq"]?.intValue))
    }

    /// Checks that `heard`, the recording of "The file Привет was saved" (ids below `firstID` spoken
    /// before it), is the Piper voice's own rendering of "The file ", then espeak-ng's Russian
    /// rendering of "Привет " (the helper's first text, so sample for sample the command line
    /// tool's), then Piper's "was saved": each run whole, once, in order.
    private func expectRunsRendered(
        _ heard: [Int16], _ client: LineClient, _ daemon: DaemonProcess, firstID: Int
    ) throws {
        let first = try piperRendering(runs[0], id: firstID, client, daemon)
        let last = try piperRendering(runs[2], id: firstID + 1, client, daemon)
        let russian = WAVFile.trimmed(try espeakReference(text: runs[1], voice: "ru", rate: 175))
        try #require(heard.count > first.count + last.count, "heard \(heard.count) samples")
        let headDifference = largestDifference(Array(heard.prefix(first.count)), first)
        let tailDifference = largestDifference(Array(heard.suffix(last.count)), last)
        let middle = WAVFile.trimmed(Array(heard[first.count..<(heard.count - last.count)]))
        print(
            "switch: heard \(heard.count) samples = Piper \(first.count) (largest difference \(headDifference)) + espeak-ng \(heard.count - first.count - last.count) (trimmed \(middle.count), reference \(russian.count)) + Piper \(last.count) (largest difference \(tailDifference))"
        )
        #expect(headDifference <= renderingTolerance, "the first run is Piper's own \"The file \"")
        #expect(tailDifference <= renderingTolerance, "the last run is Piper's own \"was saved\"")
        #expect(
            middle.count == russian.count && largestDifference(Array(middle), Array(russian)) <= renderingTolerance,
            "the Russian run is espeak-ng's own ru \"Привет \"")
        #expect(peak(first) > 1_000 && peak(last) > 1_000 && peak(Array(middle)) > 1_000, "each run is heard")
        // Spelled by the English voice ("pe er i ve ye te"), "Привет" lasts far longer.
        let spelled = WAVFile.trimmed(try espeakReference(text: runs[1], voice: "en-us", rate: 175))
        #expect(Double(spelled.count) > Double(middle.count) * 1.5, "nothing is spelled")
    }

    /// The daemon's helper process running `executable` (`announced-espeak`, `announced-piper`).
    private func helperPID(_ daemon: DaemonProcess, _ executable: String) -> Int32? {
        EngineCrashTests.children(of: daemon.process.processIdentifier).first {
            ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\($0)/exe")) ?? "")
                .hasSuffix("/" + executable)
        }
    }

    /// Waits until the process `pid` is blocked writing to its standard output (`write` or
    /// `writev` on descriptor 1, as /proc/PID/syscall tells): a helper whose pipe to the daemon
    /// is full, the daemon not reading it yet.
    /// No event tells when a process blocks in a system call: /proc is polled.
    private func waitUntilBlockedWriting(_ pid: Int32, timeout: Double = 30) -> Bool {
        pollUntil(every: 0.001, timeout: timeout) {
            let call = ((try? String(contentsOfFile: "/proc/\(pid)/syscall", encoding: .utf8)) ?? "")
                .split(separator: " ")
            return call.count > 1 && (call[0] == "1" || call[0] == "20") && call[1] == "0x1"
        }
    }

    @Test(
        "\"The file Привет was saved\": Piper's \"The file \", espeak-ng's Russian \"Привет \", Piper's \"was saved\", each that engine's own rendering; the next run synthesized ahead; one started, one finished"
    )
    func mixedText() throws {
        let daemon = try switchingDaemon()
        let client = try daemon.connect()
        client.send(announce(1, text, joe))
        let finished = try #require(client.waitForTerminal(id: 1, timeout: 90))
        #expect(finished["success"] == .bool(true), "\(finished.text)")
        #expect(client.lines(id: 1).map { $0.event ?? "" } == ["queued", "started", "finished"])
        let heard = try daemon.wavSamples(seq: try #require(finished["seq"]?.intValue))
        try expectRunsRendered(heard, client, daemon, firstID: 2)
        #expect(daemon.stop() == 0)
        let log = daemon.stderrText()
        let ahead = log.split(separator: "\n").filter { $0.contains("synthesizing ahead") && $0.contains("seq=1") }
        #expect(ahead.count == 2, "runs 2 and 3 synthesized while the run before played: \(ahead)")
        #expect(ahead.first?.contains("engine=espeak-ng") == true && ahead.last?.contains("engine=piper") == true)
    }

    @Test(
        "paused in the first run while the second is synthesized ahead, then resumed: the recording is each run's own rendering once, continuing at the sample where it stopped"
    )
    func pauseInFirstRun() throws {
        let daemon = try switchingDaemon()
        let client = try daemon.connect()
        client.send(announce(1, text, joe))
        _ = try #require(client.waitFor("started", id: 1, timeout: 90))
        client.send(#"{"op":"pause","id":2}"#)
        _ = try #require(client.waitFor("paused", id: 1))
        // The Russian run is sent ahead from the first run's first samples on.
        #expect(daemon.waitForStderr(containing: "synthesizing ahead", timeout: 10))
        client.send(#"{"op":"resume","id":3}"#)
        _ = try #require(client.waitFor("resumed", id: 1))
        let finished = try #require(client.waitForTerminal(id: 1, timeout: 60))
        #expect(finished["success"] == .bool(true), "\(finished.text)")
        #expect(client.lines(id: 1).filter { $0.event == "started" }.count == 1)
        let heard = try daemon.wavSamples(seq: try #require(finished["seq"]?.intValue))
        try expectRunsRendered(heard, client, daemon, firstID: 4)
        #expect(daemon.stop() == 0)
    }

    @Test(
        "cancelled during the espeak-ng run while the last Piper run is synthesized ahead: one cancelled line, spoken_chars over the whole text, the run ahead never heard, and the Piper helper's next post its own"
    )
    func cancelDuringSecondRun() throws {
        let daemon = try switchingDaemon()
        let client = try daemon.connect()
        let english = "The file "
        let russian = String(repeating: "Это русская часть объявления, она длинная. ", count: 4)
        let closing = "was saved"
        client.send(announce(1, english + russian + closing, joe + #","words":true"#))
        let russianOffset = english.unicodeScalars.count
        let closingOffset = (english + russian).unicodeScalars.count
        _ = try #require(
            client.waitFor(timeout: 90) {
                $0["event"] == .string("word") && ($0["offset"]?.intValue ?? 0) >= russianOffset + 10
            })
        #expect(
            daemon.waitForStderr(containing: "synthesizing ahead", count: 2, timeout: 10), "the last run was sent ahead"
        )
        client.send(#"{"op":"cancel","id":2,"target":1}"#)
        let finished = try #require(client.waitForTerminal(id: 1))
        #expect(finished["reason"] == .string("cancelled"), "\(finished.text)")
        let spoken = try #require(finished["spoken_chars"]?.intValue)
        #expect(spoken >= russianOffset + 10 && spoken < closingOffset, "spoken_chars \(spoken) over the whole text")
        #expect(client.lines(id: 1).filter { $0.event == "finished" }.count == 1)
        let heard = try daemon.wavSamples(seq: try #require(finished["seq"]?.intValue))
        // The Piper run whole, then part of the Russian run, and nothing of "was saved".
        let first = try piperRendering(english, id: 3, client, daemon)
        let ahead = try piperRendering(closing, id: 4, client, daemon)
        let again = try piperRendering(closing, id: 5, client, daemon)
        #expect(largestDifference(Array(heard.prefix(first.count)), first) <= renderingTolerance)
        let russianHeard = WAVFile.trimmed(Array(heard.dropFirst(first.count)))
        let russianWhole = WAVFile.trimmed(try espeakReference(text: russian, voice: "ru", rate: 175))
        #expect(
            russianHeard.count < russianWhole.count
                && largestDifference(Array(russianHeard), Array(russianWhole.prefix(russianHeard.count)))
                    <= renderingTolerance,
            "a beginning of espeak-ng's Russian run, and nothing after it")
        // The Piper helper was stopped in the run it synthesized ahead: its next post is its own
        // rendering, the same as the one after it, not the abandoned run's audio.
        #expect(
            ahead.count == again.count && largestDifference(ahead, again) <= renderingTolerance,
            "Piper's first post after the cancel: \(ahead.count) samples, the same text again \(again.count)")
        #expect(daemon.stop() == 0)
    }

    @Test(
        "SSML across a switch: marks in text order, words at their offsets in the post, one started and one finished"
    )
    func marksAcrossSwitch() throws {
        let daemon = try switchingDaemon()
        let client = try daemon.connect()
        let ssml =
            #"<speak><mark name=\"a\"/>The file <mark name=\"b\"/>Привет <mark name=\"c\"/>was saved<mark name=\"d\"/></speak>"#
        client.send(announce(1, ssml, joe + #","ssml":true,"words":true"#))
        let finished = try #require(client.waitForTerminal(id: 1, timeout: 90))
        #expect(finished["success"] == .bool(true), "\(finished.text)")
        let lines = client.lines(id: 1)
        #expect(lines.filter { $0.event == "started" }.count == 1)
        #expect(lines.filter { $0.event == "finished" }.count == 1)
        let marks = lines.filter { $0.event == "mark" }.compactMap { $0["name"]?.stringValue }
        #expect(marks == ["a", "b", "c", "d"], "marks \(marks)")
        let words = lines.filter { $0.event == "word" }.compactMap { $0["offset"]?.intValue }
        #expect(words == words.sorted() && words.count >= 4, "words in text order across the runs: \(words)")
        #expect(daemon.stop() == 0)
        #expect(daemon.stderrText().contains("synthesizing ahead"))
    }

    /// A switching daemon speaking post 1, a long Piper run then a Russian run, once that Russian
    /// run has been sent ahead to espeak-ng's helper.
    private func postWithARunAhead() throws -> (DaemonProcess, LineClient) {
        let daemon = try switchingDaemon()
        let client = try daemon.connect()
        let english = "The file that you downloaded from the server this morning "
        client.send(announce(1, english + "Привет, это русский текст. was saved", joe))
        _ = try #require(client.waitFor("started", id: 1, timeout: 90))
        #expect(daemon.waitForStderr(containing: "synthesizing ahead", timeout: 10))
        return (daemon, client)
    }

    @Test(
        "the espeak-ng helper killed while it holds the Russian run synthesized ahead (the Piper run playing): one error line, and the next post speaks"
    )
    func crashInRunAhead() throws {
        let (daemon, client) = try postWithARunAhead()
        let espeak = try #require(helperPID(daemon, "announced-espeak"))
        // It has answered and filled its pipe with the Russian run's first audio.
        try #require(waitUntilBlockedWriting(espeak), "the espeak-ng helper synthesizes the run ahead")
        #expect(client.lines(id: 1).allSatisfy { $0.event != "finished" }, "still in the Piper run")
        kill(espeak, SIGKILL)
        let finished = try #require(client.waitForTerminal(id: 1, timeout: 30))
        #expect(finished["reason"] == .string("error"), "\(finished.text)")
        #expect(finished["message"]?.stringValue?.contains("espeak-ng crashed") == true, "\(finished.text)")
        client.send(announce(2, "Back again", #","voice":"en-us""#))
        #expect(client.waitForTerminal(id: 2)?["success"] == .bool(true))
        #expect(client.lines(id: 1).filter { $0.event == "finished" }.count == 1, "one terminal line")
        #expect(daemon.stop() == 0)
    }

    @Test(
        "the Piper helper killed in the first run, the espeak-ng run synthesized ahead: one error line; the espeak-ng helper is stopped in that run, and its next post is its own"
    )
    func crashInPlayingRun() throws {
        let (daemon, client) = try postWithARunAhead()
        let piper = try #require(helperPID(daemon, "announced-piper"))
        kill(piper, SIGKILL)
        let finished = try #require(client.waitForTerminal(id: 1, timeout: 30))
        #expect(finished["reason"] == .string("error"), "\(finished.text)")
        #expect(finished["message"]?.stringValue?.contains("piper crashed") == true, "\(finished.text)")
        let next = "Back again"
        client.send(announce(2, next, #","voice":"en-us""#))
        let second = try #require(client.waitForTerminal(id: 2))
        #expect(second["success"] == .bool(true))
        let heard = Array(WAVFile.trimmed(try daemon.wavSamples(seq: try #require(second["seq"]?.intValue))))
        let reference = Array(WAVFile.trimmed(try espeakReference(text: next, voice: "en-us", rate: 175)))
        // Later texts of one espeak-ng helper differ in phase (NavigationTests' tolerance).
        #expect(
            abs(heard.count - reference.count) < 2_205 && envelopeCorrelation(heard, reference) > 0.9,
            "the next post is espeak-ng's \"\(next)\", not the abandoned Russian run: \(heard.count) samples, reference \(reference.count)"
        )
        #expect(client.lines(id: 1).filter { $0.event == "finished" }.count == 1, "one terminal line")
        #expect(daemon.stop() == 0)
    }
}
