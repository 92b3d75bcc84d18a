// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import Foundation
import Testing

@testable import SpeechSynthesis

/// The backend with real espeak-ng. Serialized: all backends share the suite's speech thread and
/// the pacing check wants the machine to itself.
@Suite(.serialized)
struct EngineBackendTests {
    @Test func firstSynthesisThroughWAVEqualsTheCommandLineTool() async throws {
        let first = try await FirstSynthesis.done()
        #expect(first.events.first == .started(seq: FirstSynthesis.seq))
        #expect(first.events.last == .finished(seq: FirstSynthesis.seq, outcome: .completed))

        let wav = try #require(WAVFile.pcm(first.wavData))
        #expect(wav.sampleRate == 22_050)
        // The header sizes match the file.
        let bytes = [UInt8](first.wavData)
        let riffSize = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
        #expect(riffSize == bytes.count - 8)
        #expect(wav.samples.count * 2 + 44 == bytes.count)

        let cli = try await TestAudio.cliPCM(text: FirstSynthesis.text)
        let ours = WAVFile.trimmed(wav.samples)
        let theirs = WAVFile.trimmed(cli)
        #expect(!theirs.isEmpty)
        #expect(ours.count == theirs.count)
        let firstDifference = zip(ours, theirs).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(firstDifference == nil, "first differing sample at \(firstDifference ?? -1)")
    }

    @Test func wordEventsMapToTheWordsOfTheText() async throws {
        try await FirstSynthesis.done()
        var recorder = EventRecorder()
        let engine = try EngineBackend(
            thread: TestAudio.speech, output: NullAudioOutput(), logger: TestAudio.logger,
            eventHandler: recorder.handler)
        let text = "The naïve café served crème brûlée, déjà vu! Zoë’s 42 friends came."
        engine.speak(Utterance(seq: 5, text: text, voice: "en-us", rate: 450))
        let events = await recorder.events(untilFinished: 5)

        #expect(events.first == .started(seq: 5))
        #expect(events.last == .finished(seq: 5, outcome: .completed))
        // espeak speaks "déjà vu" as one dictionary phrase and "42" as "forty two": one event each.
        let spoken = events.words(of: 5).map { text.scalars(offset: $0.offset, length: $0.length) }
        let expected = ["The", "naïve", "café", "served", "crème", "brûlée", "déjà", "Zoë", "42", "friends", "came"]
        #expect(spoken == expected)
        let offsets = events.words(of: 5).map(\.offset)
        #expect(offsets == offsets.sorted())
    }

    @Test func ssmlMarksArriveInPlaybackOrder() async throws {
        try await FirstSynthesis.done()
        var recorder = EventRecorder()
        let engine = try EngineBackend(
            thread: TestAudio.speech, output: NullAudioOutput(), logger: TestAudio.logger,
            eventHandler: recorder.handler)
        let text = #"<speak>one <mark name="first"/>two three <mark name="second"/>four</speak>"#
        engine.speak(Utterance(seq: 6, text: text, ssml: true, voice: "en-us", rate: 450))
        let events = await recorder.events(untilFinished: 6)

        let sequence = events.compactMap { event -> String? in
            switch event {
            case .word(_, let offset, let length): return text.scalars(offset: offset, length: length)
            case .mark(_, let name): return "<\(name)>"
            default: return nil
            }
        }
        #expect(sequence == ["one", "<first>", "two", "three", "<second>", "four"])
        #expect(events.last == .finished(seq: 6, outcome: .completed))
    }

    @Test(
        "a mark right after a sentence's full stop, which espeak-ng 1.51 does not report, is reported in its place among the marks"
    )
    func marksAfterFullStopsAreReported() async throws {
        try await FirstSynthesis.done()
        var recorder = EventRecorder()
        let engine = try EngineBackend(
            thread: TestAudio.speech, output: NullAudioOutput(), logger: TestAudio.logger,
            eventHandler: recorder.handler)
        let text =
            #"<speak><mark name="s1"/>The report is ready. <mark name='s2'/>It has three pages. <mark name="s3"/>Done. <mark name="s4"/></speak>"#
        engine.speak(Utterance(seq: 9, text: text, ssml: true, voice: "en-us", rate: 450))
        let events = await recorder.events(untilFinished: 9)
        let marks = events.compactMap { event -> String? in
            if case .mark(_, let name) = event { return name }
            return nil
        }
        #expect(marks == ["s1", "s2", "s3", "s4"])
        #expect(events.last == .finished(seq: 9, outcome: .completed))
        #expect(SSMLMarks.names(in: text) == ["s1", "s2", "s3", "s4"])
        #expect(SSMLMarks.names(in: #"<speak><mark/>a<mark name=x/>b<mark  name="ok" /></speak>"#) == ["ok"])
    }

    @Test func spellingReportsEachCharacterOfTheOriginalText() async throws {
        try await FirstSynthesis.done()
        var recorder = EventRecorder()
        let engine = try EngineBackend(
            thread: TestAudio.speech, output: NullAudioOutput(), logger: TestAudio.logger,
            eventHandler: recorder.handler)
        let text = "é<1 b&Z"
        engine.speak(Utterance(seq: 7, text: text, voice: "en-us", rate: 450, spell: true))
        let events = await recorder.events(untilFinished: 7)

        let words = events.words(of: 7)
        #expect(words.map(\.offset) == [0, 1, 2, 4, 5, 6])
        #expect(words.map(\.length) == [1, 1, 1, 1, 1, 1])
        #expect(events.last == .finished(seq: 7, outcome: .completed))
    }

    @Test func abortMidUtteranceKeepsOnlyWhatWasPlayed() async throws {
        try await FirstSynthesis.done()
        let directory = TestAudio.temporaryDirectory()
        let output = try WAVAudioOutput(directory: directory)
        var recorder = EventRecorder()
        let engine = try EngineBackend(
            thread: TestAudio.speech, output: output, logger: TestAudio.logger, eventHandler: recorder.handler)
        let text =
            "This long sentence keeps going for a while so that it can be interrupted somewhere in the middle of it."
        engine.speak(Utterance(seq: 10, text: text, voice: "en-us"))

        // Interrupt once playback has reached the third word.
        let before = await recorder.events(through: {
            if case .word(10, let offset, _) = $0 { return offset > 5 } else { return false }
        })
        engine.abort(seq: 10)
        let after = await recorder.events(untilFinished: 10)
        let events = before + after

        #expect(events.first == .started(seq: 10))
        guard case .aborted(let spokenChars) = events.outcome(of: 10) else {
            Issue.record("expected an aborted outcome, got \(String(describing: events.outcome(of: 10)))")
            return
        }
        #expect(spokenChars > 0)
        #expect(spokenChars < text.unicodeScalars.count)
        #expect(spokenChars == events.words(of: 10).last?.offset)

        let data = try Data(contentsOf: URL(fileURLWithPath: output.path(forSeq: 10)))
        let recorded = try #require(WAVFile.pcm(data)).samples
        let full = try await TestAudio.cliPCM(text: text)
        #expect(recorded.count > 0)
        #expect(recorded.count < full.count / 2)
        #expect(recorded.count * 2 + 44 == data.count)

        // The engine speaks normally after an interruption.
        engine.speak(Utterance(seq: 11, text: "Next.", voice: "en-us", rate: 300))
        let next = await recorder.events(untilFinished: 11)
        #expect(next.first == .started(seq: 11))
        #expect(next.last == .finished(seq: 11, outcome: .completed))
    }

    @Test func longTextStartsAtOnceAndStopsAtOnce() async throws {
        try await FirstSynthesis.done()
        var recorder = EventRecorder()
        let engine = try EngineBackend(
            thread: TestAudio.speech, output: NullAudioOutput(), logger: TestAudio.logger,
            eventHandler: recorder.handler)
        let sentence = "Every word of this long text is synthesized only as fast as it is played. "
        let text = String(String(repeating: sentence, count: 120).unicodeScalars.prefix(8_192))
        engine.speak(Utterance(seq: 15, text: text, voice: "en-us"))
        let before = await recorder.events(through: {
            if case .word(15, let offset, _) = $0 { return offset > 0 } else { return false }
        })
        engine.abort(seq: 15)
        let events = before + (await recorder.events(untilFinished: 15))
        #expect(events.first == .started(seq: 15))
        #expect(events.outcome(of: 15) == .aborted(spokenChars: events.words(of: 15).last?.offset ?? -1))
        #expect(events.words(of: 15).count <= 3)
    }

    @Test func abortWhileQueuedReportsNoStart() async throws {
        try await FirstSynthesis.done()
        var recorder = EventRecorder()
        let engine = try EngineBackend(
            thread: TestAudio.speech, output: NullAudioOutput(), logger: TestAudio.logger,
            eventHandler: recorder.handler)
        engine.speak(Utterance(seq: 20, text: "A sentence that plays for more than a moment.", voice: "en-us"))
        engine.speak(Utterance(seq: 21, text: "Never heard.", voice: "en-us"))
        engine.abort(seq: 21)
        let early = await recorder.events(untilFinished: 21)
        engine.abort(seq: 20)
        let late = await recorder.events(untilFinished: 20)
        let events = early + late

        #expect(events.outcome(of: 21) == .aborted(spokenChars: 0))
        #expect(!events.contains(.started(seq: 21)))
        #expect(events.words(of: 21).isEmpty)
        #expect(events.outcome(of: 20) != .completed)
        #expect(events.filter { if case .finished = $0 { true } else { false } }.count == 2)
    }

    @Test func nullOutputPacesTheEngine() async throws {
        try await FirstSynthesis.done()
        let text = "This sentence takes about two seconds to say out loud."
        let expectedFrames = WAVFile.trimmed(try await TestAudio.cliPCM(text: text)).count
        #expect(expectedFrames > 22_050)

        var recorder = EventRecorder()
        let output = LookaheadRecordingOutput()
        let engine = try EngineBackend(
            thread: TestAudio.speech, output: output, logger: TestAudio.logger, eventHandler: recorder.handler)
        engine.speak(Utterance(seq: 30, text: text, voice: "en-us"))
        let events = await recorder.events(untilFinished: 30)

        #expect(events.last == .finished(seq: 30, outcome: .completed))
        // espeak-ng makes the whole sentence in milliseconds; the output held the engine back to
        // its 20 ms buffer plus the 5 ms slice being written, all the way through.
        let (largest, written) = output.lookahead
        #expect(written >= expectedFrames)
        #expect(largest <= 22_050 * 25 / 1000 + 1, "unplayed after a write: \(largest) frames")
    }

    @Test func unknownVoiceFails() async throws {
        try await FirstSynthesis.done()
        var recorder = EventRecorder()
        let engine = try EngineBackend(
            thread: TestAudio.speech, output: NullAudioOutput(), logger: TestAudio.logger,
            eventHandler: recorder.handler)
        engine.speak(Utterance(seq: 40, text: "Hello.", voice: "xx-nonexistent"))
        let events = await recorder.events(untilFinished: 40)

        #expect(events.count == 1)
        guard case .failed(let message, let spokenChars) = events.outcome(of: 40) else {
            Issue.record("expected failure, got \(events)")
            return
        }
        #expect(message.contains("could not load the voice xx-nonexistent"))
        #expect(spokenChars == 0)
    }

    @Test func earconPrecedesTheSpeech() async throws {
        try await FirstSynthesis.done()
        let directory = TestAudio.temporaryDirectory()
        let output = try WAVAudioOutput(directory: directory)
        var recorder = EventRecorder()
        let engine = try EngineBackend(
            thread: TestAudio.speech, output: output, logger: TestAudio.logger, eventHandler: recorder.handler)
        engine.speak(Utterance(seq: 50, text: "Changed.", voice: "en-us", rate: 300, earcon: true))
        let events = await recorder.events(untilFinished: 50)
        #expect(events.first == .started(seq: 50))
        #expect(events.last == .finished(seq: 50, outcome: .completed))

        let data = try Data(contentsOf: URL(fileURLWithPath: output.path(forSeq: 50)))
        let samples = try #require(WAVFile.pcm(data)).samples
        let earcon = Earcon.samples(sampleRate: 22_050)
        #expect(Double(earcon.count) / 22_050 < 0.15)
        #expect(Array(samples.prefix(earcon.count)) == earcon)
        #expect(samples.count > earcon.count)
        // The first word is reported at the start of the speech, after the earcon.
        #expect(events.words(of: 50).first?.offset == 0)
    }

    @Test func voicesAreSelectableByName() throws {
        let engine = try EngineBackend(
            thread: TestAudio.speech, output: NullAudioOutput(), logger: TestAudio.logger, eventHandler: { _ in })
        let names = Set(engine.voices.map(\.name))
        #expect(names.isSuperset(of: ["en-us", "de", "cmn", "fr"]))
        let english = engine.voices.first { $0.name == "en-us" }
        #expect(english?.languages.first == "en-us")
        #expect(engine.voices.allSatisfy { $0.languages.allSatisfy { $0 == $0.lowercased() } })
        #expect(engine.outputDescription == "null")
    }
}
