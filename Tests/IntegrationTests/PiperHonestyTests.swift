// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import Glibc
import TestSupport
import Testing

/// A daemon whose Piper helper uses the fetched engine, with en_US-joe-medium installed and
/// `ANNOUNCED_PIPER_NOISE=0`, so the same text gives the same audio within a step per sample.
func piperDaemon(_ extra: [String: String] = [:]) throws -> DaemonProcess {
    let daemon = try DaemonProcess(
        environment: ["ANNOUNCED_PIPER_LIBRARY_DIR": FetchedPiper.libraryDirectory, "ANNOUNCED_PIPER_NOISE": "0"]
            .merging(extra) { $1 }
    )
    try FetchedPiper.install(in: daemon.voicesDirectory)
    #expect(daemon.waitForStderr(containing: "piper voices changed voices=en_us-joe-medium", timeout: 10))
    return daemon
}

/// The test voice's option fragment for `announce`.
private let joe = #","voice":"en_us-joe-medium""#

/// How far two noiseless renderings of the same text may differ, sample by sample: the helper's
/// noise scale of 1e-6 (sherpa-onnx ignores 0) leaves a step or two (1 and 2 seen in CI); a lost,
/// repeated or re-pitched sample differs by hundreds or thousands.
let renderingTolerance = 4

/// The largest difference between two recordings of the same length, sample by sample.
func largestDifference(_ first: [Int16], _ second: [Int16]) -> Int {
    zip(first, second).map { abs(Int($0) - Int($1)) }.max() ?? 0
}

/// The largest magnitude of `samples`.
func peak(_ samples: [Int16]) -> Int { samples.map { abs(Int($0)) }.max() ?? 0 }

/// Issue 25's "same honesty as espeak-ng", through the real daemon with the real Piper voice:
/// what a client is told (`spoken_chars`, marks, pause, rate and volume, spelling) agrees with
/// what the WAV output recorded.
@Suite(
    "Daemon: a Piper voice is as honest as espeak-ng", .daemonTimeLimit, .onBlockingThreads,
    .enabled(
        if: FetchedPiper.isFetched,
        "the Piper engine or its test voice is not fetched: run scripts/fetch-piper-engine.sh")
)
struct PiperHonestyTests {
    private let text =
        "The quarterly report is ready. It covers sales, returns and the new stores in the north. Every store sent its figures on time."

    /// Speaks `text` in the Piper voice, stops it once `words` word lines came, and returns its
    /// `finished` line, the last word line's offset and its recording.
    private func interrupted(_ client: LineClient, _ daemon: DaemonProcess, id: Int, afterWords words: Int) throws -> (
        finished: JSONValue, lastWord: Int, samples: [Int16]
    ) {
        client.send(announce(id, text, joe + #","words":true"#))
        _ = try #require(client.waitFor("started", id: id, timeout: 90))
        for _ in 1...words { _ = try #require(client.waitFor("word", id: id)) }
        client.send(#"{"op":"stop","id":\#(id + 1)}"#)
        let finished = try #require(client.waitForTerminal(id: id))
        let seq = try #require(finished["seq"]?.intValue)
        let lastWord = client.lines(id: id).last { $0.event == "word" }?["offset"]?.intValue ?? -1
        return (finished, lastWord, try daemon.wavSamples(seq: seq))
    }

    @Test(
        "an interrupted Piper post: spoken_chars > 0 and < the text, at the last word heard, growing with how long it played, in proportion to the recording"
    )
    func interruptedPostsCarrySpokenChars() throws {
        let daemon = try piperDaemon()
        let client = try daemon.connect()
        client.send(announce(1, text, joe))
        #expect(client.waitForTerminal(id: 1, timeout: 90)?["success"] == .bool(true))
        let whole = try daemon.wavSamples(seq: try #require(client.lines(id: 1).first?["seq"]?.intValue))
        let length = text.unicodeScalars.count

        let early = try interrupted(client, daemon, id: 10, afterWords: 3)
        let late = try interrupted(client, daemon, id: 20, afterWords: 12)
        for (cut, name) in [(early, "early"), (late, "late")] {
            let spoken = try #require(cut.finished["spoken_chars"]?.intValue)
            let heard = Double(cut.samples.count) / Double(whole.count)
            print(
                "Piper, stopped \(name): spoken_chars \(spoken) of \(length), last word at \(cut.lastWord); heard \(cut.samples.count) of \(whole.count) samples (\(heard))"
            )
            #expect(cut.finished["reason"] == .string("cancelled"), "\(cut.finished.text)")
            #expect(spoken > 0 && spoken < length)
            #expect(spoken == cut.lastWord, "spoken_chars is where the last word heard begins")
            #expect(cut.samples.count < whole.count, "a cut-off post's recording is shorter")
            // What the listener heard of the audio and of the text agree (words are placed by
            // letters within a sentence, so roughly).
            #expect(abs(Double(spoken) / Double(length) - heard) < 0.2)
        }
        #expect(
            try #require(early.finished["spoken_chars"]?.intValue)
                < (try #require(late.finished["spoken_chars"]?.intValue)))
        #expect(early.samples.count < late.samples.count)
        #expect(daemon.stop() == 0)
    }

    @Test(
        "SSML marks in a Piper post come in order, each between the words before it and after it, as playback reaches them"
    )
    func marksArriveWhenTheirAudioIsReached() throws {
        let daemon = try piperDaemon()
        let client = try daemon.connect()
        // Single quotes: `announce` puts the text into the JSON line as it is.
        let ssml =
            "<speak>The first part is here. <mark name='one'/>The second part follows. <mark name='two'/>And the third part ends it.</speak>"
        // Where each mark's tag starts, in scalars of the text.
        let markOffsets = try ["one", "two"].reduce(into: [String: Int]()) { offsets, name in
            let tag = try #require(ssml.range(of: "<mark name='\(name)'"))
            offsets[name] = ssml.unicodeScalars.distance(from: ssml.startIndex, to: tag.lowerBound)
        }
        client.send(announce(1, ssml, joe + #","ssml":true,"words":true"#))
        let finished = try #require(client.waitForTerminal(id: 1, timeout: 90))
        #expect(finished["success"] == .bool(true), "\(finished.text)")
        let events = client.lines(id: 1).filter { $0.event == "word" || $0.event == "mark" }
        let described = events.map {
            $0.event == "mark" ? "mark:\($0["name"]?.stringValue ?? "")" : "word:\($0["offset"]?.intValue ?? -1)"
        }
        print("Piper marks and words: \(described)")
        #expect(events.filter { $0.event == "mark" }.compactMap { $0["name"]?.stringValue } == ["one", "two"])
        for (index, event) in events.enumerated() where event.event == "mark" {
            let offset = try #require(markOffsets[event["name"]?.stringValue ?? ""])
            let before = events[..<index].filter { $0.event == "word" }.compactMap { $0["offset"]?.intValue }
            let after = events[(index + 1)...].filter { $0.event == "word" }.compactMap { $0["offset"]?.intValue }
            #expect(
                !before.isEmpty && before.allSatisfy { $0 < offset },
                "the words before the mark come before it: \(described)")
            #expect(
                !after.isEmpty && after.allSatisfy { $0 > offset },
                "the words after the mark come after it: \(described)")
        }
        #expect(daemon.stop() == 0)
    }

    /// The size of `path` in bytes (0 when it does not exist yet).
    @Test(
        "pause and resume of a Piper post: nothing recorded while paused, and the recording equals an unpaused one within a step per sample"
    )
    func pauseResumesFromTheSameSample() throws {
        let daemon = try piperDaemon()
        let client = try daemon.connect()
        client.send(announce(1, text, joe))
        #expect(client.waitForTerminal(id: 1, timeout: 90)?["success"] == .bool(true))
        let reference = try daemon.wavSamples(seq: try #require(client.lines(id: 1).first?["seq"]?.intValue))

        client.send(announce(2, text, joe + #","words":true"#))
        for _ in 1...6 { _ = try #require(client.waitFor("word", id: 2)) }
        client.send(#"{"op":"pause","id":3}"#)
        _ = try #require(client.waitFor("paused", id: 2))
        let seq = try #require(client.lines(id: 2).first?["seq"]?.intValue)
        let wav = URL(fileURLWithPath: daemon.wavDirectory).appendingPathComponent("\(seq).wav").path
        client.send(#"{"op":"status","id":4}"#)
        _ = try #require(client.waitFor("ok", id: 4))
        let sizeAtPause = fileSize(wav)
        // Nothing happening has no event to wait for: 400 ms unpaused would be ~17,000 bytes.
        quietSpell(seconds: 0.4)
        #expect(fileSize(wav) == sizeAtPause, "no audio is written while paused")
        client.send(#"{"op":"resume","id":5}"#)
        _ = try #require(client.waitFor("resumed", id: 2))
        #expect(client.waitForTerminal(id: 2)?["success"] == .bool(true))
        let resumed = try daemon.wavSamples(seq: seq)
        let difference = largestDifference(resumed, reference)
        print(
            "Piper pause: paused at sample \((sizeAtPause - 44) / 2) of \(resumed.count) (unpaused \(reference.count)); largest difference \(difference)"
        )
        #expect(resumed.count == reference.count, "nothing lost, repeated or inserted at the pause")
        #expect(difference <= renderingTolerance)
        #expect(daemon.stop() == 0)
    }

    @Test(
        "rate and volume change a Piper post's audio (rate 350 shorter, volume 50 half the peak); pitch is ignored, as documented"
    )
    func rateVolumeAndPitch() throws {
        let daemon = try piperDaemon()
        let client = try daemon.connect()
        let phrase = "Download complete. Your files are ready."
        func record(_ id: Int, _ options: String) throws -> [Int16] {
            client.send(announce(id, phrase, joe + options))
            let finished = try #require(client.waitForTerminal(id: id, timeout: 90))
            #expect(finished["success"] == .bool(true), "\(finished.text)")
            return try daemon.wavSamples(seq: try #require(finished["seq"]?.intValue))
        }
        let normal = try record(1, "")
        let fast = try record(2, #","rate":350"#)
        let quiet = try record(3, #","volume":50"#)
        let low = try record(4, #","pitch":0"#)
        let high = try record(5, #","pitch":100"#)
        print(
            "Piper: \(normal.count) samples at rate 175, \(fast.count) at 350; peak \(peak(normal)) at volume 100, \(peak(quiet)) at 50; pitch 0 vs 100 differ by \(largestDifference(low, high))"
        )
        #expect(fast.count < normal.count * 7 / 10)
        let ratio = Double(peak(quiet)) / Double(peak(normal))
        #expect(ratio > 0.45 && ratio < 0.55, "volume 50 halves the peak: \(ratio)")
        #expect(low.count == high.count && largestDifference(low, high) <= renderingTolerance, "Piper ignores pitch")
        #expect(daemon.stop() == 0)
    }

    @Test(
        "spell, char, a key with a letter and punctuation modes in a Piper voice are spoken by espeak-ng (the monitor says so); plain words and a key of words by Piper"
    )
    func spellingGoesToEspeak() throws {
        let daemon = try piperDaemon()
        let monitor = try speechWatcher(daemon)
        let client = try daemon.connect()
        let cases: [(request: String, engine: String)] = [
            (announce(1, "Ready.", joe), "piper"),
            (announce(2, "ab#", joe + #","spell":true,"words":true"#), "espeak-ng"),
            (#"{"op":"char","id":3,"char":"a","voice":"en_us-joe-medium"}"#, "espeak-ng"),
            (#"{"op":"key","id":4,"key":"shift_a","voice":"en_us-joe-medium"}"#, "espeak-ng"),
            (#"{"op":"key","id":5,"key":"control_alt_delete","voice":"en_us-joe-medium"}"#, "piper"),
            (announce(6, "Cost: 5 $, 3 #.", joe + #","punctuation":"all""#), "espeak-ng"),
            (announce(7, "Cost: 5 $, 3 #.", joe + #","punctuation":"some""#), "espeak-ng"),
        ]
        for (index, testCase) in cases.enumerated() {
            let id = index + 1
            client.send(testCase.request)
            let finished = try #require(client.waitForTerminal(id: id, timeout: 90))
            #expect(finished["success"] == .bool(true), "\(finished.text)")
            let seq = try #require(finished["seq"]?.intValue)
            let started = try #require(
                monitor.waitFor(timeout: 10) { $0["state"] == .string("started") && $0["seq"] == .integer(Int64(seq)) })
            #expect(started["engine"] == .string(testCase.engine), "\(testCase.request): \(started.text)")
            #expect(peak(try daemon.wavSamples(seq: seq)) > 1_000, "\(testCase.request) is heard")
        }
        // Spelled by espeak-ng: one word line per character, the symbol too.
        #expect(client.lines(id: 2).filter { $0.event == "word" }.compactMap { $0["offset"]?.intValue } == [0, 1, 2])
        #expect(daemon.stop() == 0)
    }
}
