// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import AnnounceProtocol
import Foundation
import POSIXThreads
import TestSupport
import Testing

@testable import SpeechSynthesis

/// A third engine added to the one list of engines (`SpeechEngines.registered()`) from a test,
/// with no edit outside its own files: ``FakeToneEngine``, whose helper says every text as a tone.
/// Its voice is listed, and its audio arrives through the speech thread (the door of native posts,
/// SSIP messages and toolkit announcements, through the dispatcher and `EngineBackend`) and through
/// a stream (the Spiel door's `StreamSynthesizer`).
@Suite(.serialized)
struct ThirdEngineTests {
    /// A null output that keeps what each utterance wrote.
    final class RecordingOutput: NullDeviceOutput, @unchecked Sendable {
        let device = NullAudioOutput()
        private let lock = ConditionLock()
        private var samples: [UInt64: [Int16]] = [:]
        private var seq: UInt64 = 0
        var description: String { "recording null" }

        func begin(seq: UInt64, sampleRate: Int, abortSignal: UtteranceAbortSignal) throws {
            try device.begin(seq: seq, sampleRate: sampleRate, abortSignal: abortSignal)
            lock.withLock { self.seq = seq }
        }

        func write(_ samples: UnsafeBufferPointer<Int16>) throws {
            try device.write(samples)
            lock.withLock { self.samples[seq, default: []] += samples }
        }

        /// What every utterance wrote, in order of their numbers.
        var all: [Int16] { lock.withLock { samples.keys.sorted().flatMap { samples[$0]! } } }

        /// What the utterance `seq` wrote.
        func written(_ seq: UInt64) -> [Int16] { lock.withLock { samples[seq] ?? [] } }
    }

    /// A speech thread with the registered engines and the fake one after them.
    static func threadWithFakeEngine() throws -> SpeechThread {
        try FakeToneEngine.installHelper()
        return SpeechThread.start(engines: SpeechEngines.registered() + [FakeToneEngine()])
    }

    @Test(
        "a fake third engine in the list: its voice is listed as its own, with its capabilities, and its engine as installed"
    )
    func voicesListed() throws {
        let thread = try Self.threadWithFakeEngine()
        defer { thread.stop {} }
        let backend = try EngineBackend(
            thread: thread, output: NullAudioOutput(), logger: TestAudio.logger, eventHandler: { _ in })
        let fake = try #require(backend.voices.first { $0.engine == FakeToneEngine.name })
        #expect(fake.name == "fake-tone" && fake.languages == ["x-fake"] && fake.title == "A fake tone")
        #expect(fake.capabilities == EngineCapabilities(), "no variants, no language fallback")
        #expect(
            backend.voices.contains { $0.name == "en-us" && $0.engine == "espeak-ng" }, "espeak-ng's are still there")
        #expect(backend.installedEngines().contains(FakeToneEngine.name))
        #expect(backend.engineName(forVoice: "fake-tone") == FakeToneEngine.name)
        // Its voice takes no variant and speaks no language run for another engine's language.
        let runs = RunVoices(voices: backend.voices, preferences: VoicePreferences())
        #expect(runs.voice(forLanguage: "x-fake") == nil)
        #expect(runs.voice(forLanguage: "en")?.engine == "espeak-ng")
    }

    @Test("a post in the fake engine's voice plays its tone, between espeak-ng's posts, on the speech thread")
    func speechThreadPlaysItsAudio() async throws {
        let thread = try Self.threadWithFakeEngine()
        defer { thread.stop {} }
        var recorder = EventRecorder()
        let output = RecordingOutput()
        let backend = try EngineBackend(
            thread: thread, output: output, logger: TestAudio.logger, eventHandler: recorder.handler)
        backend.speak(Utterance(seq: 1, text: "Before.", voice: "en-us", rate: 450))
        backend.speak(Utterance(seq: 2, text: "Any text at all.", voice: "fake-tone"))
        backend.speak(Utterance(seq: 3, text: "After.", voice: "en-us", rate: 450))
        let events = await recorder.events(untilFinished: 3)
        #expect(events.outcome(of: 2) == .completed)
        #expect(events.contains(.started(seq: 2)))
        #expect(output.written(2) == FakeToneEngine.tone, "the fake engine's tone, sample for sample")
        #expect(events.outcome(of: 1) == .completed && events.outcome(of: 3) == .completed)
        #expect(!output.written(3).isEmpty && output.written(3) != FakeToneEngine.tone, "espeak-ng said the last")
    }

    @Test("the fake engine's own installed-voice catalog joins the daemon's, and its installed voice speaks its tone")
    func installedVoiceCatalogJoinsTheDaemons() async throws {
        let thread = try Self.threadWithFakeEngine()
        defer { thread.stop {} }
        let catalog = SpeechEngines.installedVoiceCatalog(
            environment: ["HOME": TestAudio.temporaryDirectory(), "ANNOUNCED_SYSTEM_VOICES": ""],
            logger: TestAudio.logger, thread: thread)
        #expect(catalog.voices == [FakeToneEngine.InstalledVoices.voice], "no Piper voice in an empty home")
        var recorder = EventRecorder()
        let output = RecordingOutput()
        let backend = try EngineBackend(
            thread: thread, output: output, logger: TestAudio.logger, eventHandler: recorder.handler,
            installedVoices: { catalog.voices }, whenInstalledVoicesCurrent: { catalog.whenCurrent($0) })
        #expect(backend.voices.last == FakeToneEngine.InstalledVoices.voice)
        let installed = FakeToneEngine.InstalledVoices.voice.identifier
        #expect(backend.engineName(forVoice: installed) == FakeToneEngine.name)
        backend.speak(Utterance(seq: 1, text: "Installed.", voice: installed))
        let events = await recorder.events(untilFinished: 1)
        #expect(events.outcome(of: 1) == .completed)
        #expect(output.written(1) == FakeToneEngine.tone)
    }

    /// A client's lines as JSON text (awaited within a timeout, so a missing line fails the test
    /// instead of hanging it).
    final class LineSink: EventSink, @unchecked Sendable {
        let lines: AsyncStream<String>
        private let continuation: AsyncStream<String>.Continuation

        init() {
            (lines, continuation) = AsyncStream.makeStream(of: String.self)
        }

        func deliver(_ lines: [ClientLine]) {
            for case .event(let event) in lines { continuation.yield(event.json.jsonText) }
        }

        func close() { continuation.finish() }
    }

    @Test("a native post naming the fake engine's voice goes through the dispatcher and plays its tone")
    func dispatcherPostPlaysItsAudio() async throws {
        let thread = try Self.threadWithFakeEngine()
        defer { thread.stop {} }
        let dispatcher = await MainActor.run { Dispatcher() }
        let output = RecordingOutput()
        let backend = try EngineBackend(
            thread: thread, output: output, logger: TestAudio.logger, eventHandler: dispatcher.backendEventHandler)
        let sink = LineSink()
        await dispatcher.inTurn { $0.attach(backend) }
        dispatcher.open(ClientRegistration(id: 1, pid: nil, sink: sink))
        let line = #"{"op":"announce","id":1,"text":"Beep.","voice":"fake-tone"}"#
        dispatcher.submit([ClientInput(decoded: RequestLine.decode(line: Array(line.utf8)))], from: 1)
        let stream = sink.lines
        let lines = try await withTimeout("the post's finished line", seconds: 90) {
            var lines: [String] = []
            for await line in stream {
                lines.append(line)
                if line.contains(#""event":"finished""#) || line.contains(#""event":"error""#) { break }
            }
            return lines
        }
        #expect(lines.contains { $0.contains(#""event":"started""#) }, "\(lines)")
        #expect(lines.last?.contains(#""success":true"#) == true, "\(lines)")
        #expect(output.all == FakeToneEngine.tone, "the fake engine's tone, sample for sample, and nothing else")
    }

    @Test("a stream in the fake engine's voice (the Spiel door) gets its tone at its rate")
    func streamGetsItsAudio() throws {
        let thread = try Self.threadWithFakeEngine()
        defer { thread.stop {} }
        let backend = try EngineBackend(
            thread: thread, output: NullAudioOutput(), logger: TestAudio.logger, eventHandler: { _ in })
        let voice = try #require(backend.voices.first { $0.engine == FakeToneEngine.name })
        var rate = 0
        var samples: [Int16] = []
        let end = StreamSynthesizer(thread: thread, logger: TestAudio.logger).synthesize(
            StreamSynthesisRequest(
                voice: voice, text: "Streamed.", ssml: false, rate: 175, pitch: 50, volume: 100, punctuation: .none),
            cancelDescriptors: [],
            started: {
                rate = $0
                return true
            },
            sink: { event in
                if case .samples(let slice) = event { samples += slice }
                return true
            })
        #expect(end == .finished)
        #expect(rate == FakeToneEngine.sampleRate)
        #expect(samples == FakeToneEngine.tone)
    }
}
