// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import EngineSandbox
import EngineWire
import Foundation
import Glibc
import PiperVoices
import Testing

/// The real `announced-piper` with the real engine (sherpa-onnx 2.0.1's wheel) and the real
/// voice (en_US-joe-medium), driven through its pipes as the daemon drives it.
@Suite(
    "announced-piper with the real engine and voice", .onBlockingThreads,
    .enabled(if: PiperTestFiles.isFetched, "\(PiperTestFiles.missing)")
)
struct PiperHelperTests {
    /// A helper that has answered `ready` and loaded the test voice.
    static func preparedHelper(environment: [String: String] = [:]) throws -> PiperHelper {
        let helper = try PiperHelper(environment: environment)
        let ready = helper.next()
        try #require(ready == .ready(sampleRate: 22_050, voices: []), "stderr: \(helper.errors)")
        helper.send(.prepare(voice: PiperTestFiles.voice))
        let prepared = helper.next(timeout: 120)
        try #require(prepared == .voicePrepared(status: 0, message: ""), "stderr: \(helper.errors)")
        return helper
    }

    /// The loudest sample's magnitude.
    static func peak(_ samples: [Int16]) -> Int { samples.map { abs(Int($0)) }.max() ?? 0 }

    @Test("ready at 22,050 Hz with no voice list; prepare loads the voice; the helper ends 0 when its input closes")
    func readyAndPrepare() throws {
        let helper = try Self.preparedHelper()
        #expect(helper.stop() == 0)
    }

    @Test(
        "\"Download complete.\" is about a second of audible speech, with its two words, between voiceSelected and done"
    )
    func downloadComplete() throws {
        let helper = try Self.preparedHelper()
        helper.send(PiperHelper.request("Download complete."))
        let messages = helper.utterance()
        #expect(messages.first == .voiceSelected)
        #expect(messages.last == .done(status: 0))
        let samples = messages.samples
        let seconds = Double(samples.count) / 22_050
        print("Download complete.: \(samples.count) samples (\(seconds) s), peak \(Self.peak(samples))")
        #expect((0.6...1.8).contains(seconds))
        #expect(Self.peak(samples) > 3_000, "speech, not silence")
        let words = messages.words
        #expect(words.map(\.textPosition) == [1, 10])
        #expect(words.map(\.length) == [8, 8], "the words, without the full stop")
        #expect(words.count == 2 && words[0].sample < words[1].sample && Int(words[1].sample) < samples.count)
    }

    @Test(
        "SSML marks come in order, each at the sample where the text after it begins; tags are not spoken; word positions count in the SSML text"
    )
    func marks() throws {
        let helper = try Self.preparedHelper()
        let text = "<speak>First. <mark name=\"one\"/>second, <mark name='two'/>third &amp; last.</speak>"
        helper.send(PiperHelper.request(text, ssml: true))
        let messages = helper.utterance()
        #expect(messages.last == .done(status: 0))
        let marks = messages.marks
        #expect(marks.map(\.name) == ["one", "two"])
        for mark in marks {
            #expect(Int(mark.sample) == mark.samplesBefore, "\(mark.name) is reported where the audio after it starts")
            #expect(mark.samplesBefore > 0)
        }
        #expect(marks.count == 2 && marks[0].sample < marks[1].sample)
        let scalars = Array(text.unicodeScalars)
        let spoken = messages.words.map { word in
            String(
                String.UnicodeScalarView(scalars[Int(word.textPosition - 1)..<Int(word.textPosition - 1 + word.length)])
            )
        }
        #expect(spoken == ["First", "second", "third", "last"], "an entity alone is no word; punctuation is left out")
        // "second" starts where mark one is: the pause after "First." comes before the mark.
        let words = messages.words
        #expect(
            words.count == 4 && marks.count == 2 && words[1].sample == marks[0].sample
                && words[2].sample == marks[1].sample)
        let samples = messages.samples
        let zerosAfterMark = samples[Int(marks[0].sample)...].prefix { $0 == 0 }.count
        let zerosBeforeMark = samples[..<Int(marks[0].sample)].reversed().prefix { $0 == 0 }.count
        #expect(
            zerosAfterMark < 2_205 && zerosBeforeMark >= 4_410,
            "the sentence's 0.2 s pause is before the mark (\(zerosBeforeMark) zeros), not after (\(zerosAfterMark))")
    }

    @Test("an SSML break is that much silence between the words")
    func breaks() throws {
        let helper = try Self.preparedHelper()
        helper.send(
            PiperHelper.request(
                "<speak>Hello <break time=\"2s\"/> world, <break strength='x-strong'/>again.</speak>", ssml: true))
        let messages = helper.utterance()
        let samples = messages.samples
        let words = messages.words
        try #require(words.count == 3)
        // From the end of "Hello" (where its audio is last audible) to "world": at least 2 s of zeros.
        let between = samples[..<Int(words[1].sample)]
        let silentTail = between.reversed().prefix { $0 == 0 }.count
        print("break: \(silentTail) silent samples before \"world\"")
        #expect(silentTail >= 2 * 22_050)
        #expect(Double(samples.count) / 22_050 >= 3.5, "both breaks, 3 s, and three words")
    }

    @Test("abort stops a long text within a sentence: done comes soon, after a fraction of its audio")
    func abort() throws {
        let helper = try Self.preparedHelper()
        let sentence = "This sentence is one of forty in a long text that would take minutes to speak. "
        helper.send(PiperHelper.request(String(repeating: sentence, count: 40)))
        #expect(helper.next() == .voiceSelected)
        var before = 0
        while before == 0, let message = helper.next() {
            if case .samples(let samples) = message { before += samples.count }
        }
        let asked = ContinuousClock.now
        helper.send(.abort)
        let rest = helper.utterance()
        let waited = ContinuousClock.now - asked
        let total = before + rest.samples.count
        print("abort: done \(waited) after the request, \(Double(total) / 22_050) s of audio in all")
        #expect(rest.last == .done(status: 0))
        #expect(total < 22_050 * 20, "far less than the text's minutes of audio")
        #expect(waited < .seconds(5), "at most one sentence's synthesis, with a wide margin for a loaded machine")
        // The helper speaks the next utterance normally.
        helper.send(PiperHelper.request("Next."))
        let next = helper.utterance()
        #expect(next.last == .done(status: 0) && Self.peak(next.samples) > 1_000)
    }

    @Test(
        "a voice that cannot be loaded: voiceFailed and done for synthesize, voicePrepared 1 for prepare; the helper goes on"
    )
    func badVoice() throws {
        let helper = try Self.preparedHelper()
        let missing = PiperTestFiles.voiceDirectory + "/no-such-voice.onnx"
        helper.send(PiperHelper.request("Hello.", voice: missing))
        let messages = helper.utterance()
        #expect(messages.count == 2)
        if case .voiceFailed(let message)? = messages.first {
            #expect(message.contains("no-such-voice.onnx.json cannot be read"))
        } else {
            Issue.record("expected voiceFailed, got \(messages)")
        }
        #expect(messages.last == .done(status: 0))
        helper.send(.prepare(voice: "relative.onnx"))
        if case .voicePrepared(let status, let message)? = helper.next() {
            #expect(status == 1 && message.contains("not the absolute path"))
        } else {
            Issue.record("expected voicePrepared")
        }
        helper.send(PiperHelper.request("Still here."))
        #expect(Self.peak(helper.utterance().samples) > 1_000)
    }

    @Test(
        "voices that are not Piper pairs are refused with a reason, and the helper goes on: bad JSON, a damaged model, a voice outside the voice directories",
        .enabled(if: EngineSandbox.kernelLandlockABI != nil, "this kernel has no Landlock")
    )
    func damagedVoices() throws {
        let directory = NSTemporaryDirectory() + "piper-voices-\(UUID().uuidString)"
        let outside = NSTemporaryDirectory() + "piper-outside-\(UUID().uuidString)"
        for path in [directory, outside] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        defer { for path in [directory, outside] { try? FileManager.default.removeItem(atPath: path) } }
        let json = try String(contentsOfFile: PiperTestFiles.voice + ".json", encoding: .utf8)
        let modelStart =
            try FileHandle(forReadingFrom: URL(fileURLWithPath: PiperTestFiles.voice)).read(upToCount: 4096) ?? Data()
        try "{\"audio\": ".write(toFile: directory + "/nojson.onnx.json", atomically: true, encoding: .utf8)
        try modelStart.write(to: URL(fileURLWithPath: directory + "/nojson.onnx"))
        try json.write(toFile: directory + "/cut.onnx.json", atomically: true, encoding: .utf8)
        try modelStart.write(to: URL(fileURLWithPath: directory + "/cut.onnx"))
        try json.write(toFile: outside + "/elsewhere.onnx.json", atomically: true, encoding: .utf8)
        let helper = try Self.preparedHelper(environment: [
            "ANNOUNCED_PIPER_VOICE_DIRS": PiperTestFiles.voiceDirectory + ":" + directory
        ])
        for (voice, reason) in [
            (directory + "/nojson.onnx", "is not valid JSON"),
            (directory + "/cut.onnx", "sherpa-onnx cannot load the voice"),
            (outside + "/elsewhere.onnx", "cannot be read (Permission denied)"),
        ] {
            helper.send(PiperHelper.request("Hello.", voice: voice))
            let messages = helper.utterance()
            if case .voiceFailed(let message)? = messages.first {
                #expect(message.contains(reason), "\(message)")
            } else {
                Issue.record("\(voice): expected voiceFailed, got \(messages)")
            }
            #expect(messages.last == .done(status: 0))
        }
        helper.send(PiperHelper.request("Still here."))
        #expect(Self.peak(helper.utterance().samples) > 1_000)
    }

    @Test("a .onnx.json the daemon refuses, the helper refuses with the same words: one reader (PiperVoices) for both")
    func sameChecksAsTheDaemon() throws {
        let directory = NSTemporaryDirectory() + "piper-voices-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let json = try String(contentsOfFile: PiperTestFiles.voice + ".json", encoding: .utf8)
        // Each breaks one field of the real voice's file; the model is the real one, so only the JSON is at fault.
        let broken = [
            ("nocode", json.replacingOccurrences(of: "\"code\"", with: "\"renamed\"")),
            ("text", json.replacingOccurrences(of: "\"phoneme_type\": \"espeak\"", with: "\"phoneme_type\": \"text\"")),
            ("norate", json.replacingOccurrences(of: "\"sample_rate\"", with: "\"renamed\"")),
        ]
        for (stem, text) in broken {
            #expect(text != json, "\(stem) changes the file")
            try text.write(toFile: directory + "/\(stem).onnx.json", atomically: true, encoding: .utf8)
            try FileManager.default.createSymbolicLink(
                atPath: directory + "/\(stem).onnx", withDestinationPath: PiperTestFiles.voice)
        }
        var scanner = PiperVoiceScanner(directories: PiperVoiceDirectories(user: directory, system: nil))
        let scan = scanner.scan()
        #expect(scan.voices.isEmpty)
        let helper = try Self.preparedHelper(environment: [
            "ANNOUNCED_PIPER_VOICE_DIRS": PiperTestFiles.voiceDirectory + ":" + directory
        ])
        for (stem, _) in broken {
            let daemonSays = try #require(
                scan.problems.first { $0.path == directory + "/\(stem).onnx.json" }?.description, "\(scan.problems)")
            helper.send(PiperHelper.request("Hello.", voice: directory + "/\(stem).onnx"))
            let messages = helper.utterance()
            #expect(
                messages.first == .voiceFailed(message: daemonSays),
                "\(stem): \(messages.first.map { "\($0)" } ?? "nothing")")
            #expect(messages.last == .done(status: 0))
        }
        helper.send(PiperHelper.request("Still here."))
        #expect(Self.peak(helper.utterance().samples) > 1_000)
    }

    @Test("a long text streams: its first audio is sent before the second sentence is synthesized")
    func streams() throws {
        let helper = try Self.preparedHelper()
        let first = "Download complete. "
        let text =
            first
            + String(
                repeating: "The next sentence of a long text waits until the first has been sent, clause by clause. ",
                count: 60)
        #expect(text.count > 5_000)
        let asked = ContinuousClock.now
        helper.send(PiperHelper.request(text))
        var messages: [EngineMessage] = []
        var firstAudio: Duration?
        while let message = helper.next() {
            if firstAudio == nil, case .samples = message { firstAudio = ContinuousClock.now - asked }
            messages.append(message)
            if case .word(_, let position, _) = message, position > first.count { break }
        }
        helper.send(.abort)
        _ = helper.utterance()
        print("\(text.count) characters: first samples after \(firstAudio.map { "\($0)" } ?? "none")")
        let firstSamples = messages.firstIndex { if case .samples = $0 { true } else { false } }
        let secondSentence = messages.firstIndex {
            if case .word(_, let position, _) = $0 { position > first.count } else { false }
        }
        #expect(firstSamples != nil && secondSentence != nil && firstSamples! < secondSentence!)
    }

    @Test(
        "a post's first chunk starts 5 ms before its first sample above |64|: it is the engine's own rendering with the quiet onset cut, sample for sample; a later sentence keeps its onset"
    )
    func firstChunkSkipsTheQuietOnset() throws {
        // The same sentence twice: the second is the engine's own rendering of the same phonemes at
        // the same settings, uncut (a later chunk keeps its quiet; it is part of the pause).
        let sentence = "Download complete."
        let helper = try Self.preparedHelper(environment: ["ANNOUNCED_PIPER_NOISE": "0"])
        helper.send(PiperHelper.request(sentence + " " + sentence))
        let messages = helper.utterance()
        #expect(messages.last == .done(status: 0))
        let samples = messages.samples
        let words = messages.words
        try #require(words.count == 4, "\(words)")
        // The second sentence's audio starts where its first word is placed, after the 0.2 s pause.
        let secondStart = Int(words[2].sample)
        let pause = 4_410
        try #require(secondStart > pause && secondStart < samples.count)
        #expect(samples[(secondStart - pause)..<secondStart].allSatisfy { $0 == 0 }, "the sentence pause")
        let first = Array(samples[..<(secondStart - pause)])
        let own = Array(samples[secondStart...])
        func firstAudible(_ audio: [Int16]) -> Int? { audio.firstIndex { abs(Int($0)) > 64 } }
        let ownAudible = try #require(firstAudible(own))
        let firstSentAudible = try #require(firstAudible(first))
        let leadIn = 110 // 5 ms at 22,050 Hz
        let cut = max(0, ownAudible - leadIn)
        print(
            "quiet onset: the engine's rendering is audible from sample \(ownAudible) (\(Double(ownAudible) / 22.05) ms); the first chunk sent from \(firstSentAudible), \(first.count) samples of \(own.count)"
        )
        #expect(ownAudible > leadIn, "the voice's rendering starts quiet (else there is nothing to cut)")
        #expect(
            firstSentAudible == ownAudible - cut, "the first chunk's first audible sample is the lead-in from its start"
        )
        #expect(first.count == own.count - cut, "only the quiet onset is cut")
        let difference = zip(first, own[cut...]).map { abs(Int($0) - Int($1)) }.max() ?? .max
        #expect(
            difference <= 8,
            "the rest is the engine's rendering, within noiseless rendering's step or two: \(difference)")
        #expect(words[0].sample == 0, "the first word starts with the audio as sent")
    }

    @Test(
        "ANNOUNCED_PIPER_NOISE=0 makes the audio repeatable: the same length, each sample within a few steps; the voice's own noise does not"
    )
    func repeatable() throws {
        let text = "Build finished, all tests passed."
        let noiseless = try Self.preparedHelper(environment: ["ANNOUNCED_PIPER_NOISE": "0"])
        noiseless.send(PiperHelper.request(text))
        let first = noiseless.utterance().samples
        noiseless.send(PiperHelper.request(text))
        let second = noiseless.utterance().samples
        // The engine takes no noise of exactly 0 (LoadedVoice.noNoise): what is left moves a sample by a step or two.
        let difference = zip(first, second).map { abs(Int($0) - Int($1)) }.max() ?? .max
        print("noiseless renderings: \(first.count) and \(second.count) samples, largest difference \(difference)")
        #expect(!first.isEmpty && first.count == second.count && difference <= 8)
        let noisy = try Self.preparedHelper()
        noisy.send(PiperHelper.request(text))
        let third = noisy.utterance().samples
        noisy.send(PiperHelper.request(text))
        let fourth = noisy.utterance().samples
        let noisyDifference = zip(third, fourth).map { abs(Int($0) - Int($1)) }.max() ?? .max
        #expect(third.count != fourth.count || noisyDifference > 1_000, "VITS's noise varies each rendering")
    }

    @Test("rate shortens the audio; volume 0 silences it (pitch is not supported and changes nothing)")
    func rateAndVolume() throws {
        let helper = try Self.preparedHelper()
        let text = "The quick brown fox jumps over the lazy dog."
        helper.send(PiperHelper.request(text))
        let normal = helper.utterance().samples.count
        helper.send(PiperHelper.request(text, rate: 350))
        let fast = helper.utterance().samples.count
        helper.send(PiperHelper.request(text, volume: 0))
        let muted = helper.utterance().samples
        print("rate 175: \(normal) samples, rate 350: \(fast)")
        #expect(Double(fast) < Double(normal) * 0.75)
        #expect(!muted.isEmpty && Self.peak(muted) == 0)
    }

    @Test(
        "a text that crashes espeak-ng 1.51 costs only that helper: it dies by SIGABRT (not its sandbox), and a new one speaks"
    )
    func crashText() throws {
        let crash = try String(
            contentsOfFile: PiperTestFiles.repository + "/Tests/FuzzCorpus/espeak-crashes/stacked-suffixes",
            encoding: .utf8
        )
        .drop { $0 == "\0" || $0.asciiValue.map { $0 < 32 } == true }
        let helper = try Self.preparedHelper()
        helper.send(PiperHelper.request(String(crash)))
        let messages = helper.utterance()
        if messages.last == .done(status: 0) {
            // A fixed espeak-ng phonemizes it: nothing to recover from.
            print("this espeak-ng phonemizes the crash text")
        } else {
            #expect(!messages.contains { if case .sandboxViolation = $0 { true } else { false } })
            #expect(helper.waitForExit() == 128 + SIGABRT)
        }
        let next = try Self.preparedHelper()
        next.send(PiperHelper.request("Recovered."))
        #expect(Self.peak(next.utterance().samples) > 1_000)
    }
}
