// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import Testing

@testable import SpeechSynthesis

/// The engine seam without the Piper engine: routing by voice, and a Piper helper that cannot
/// start, which costs only the Piper posts.
@Suite(.serialized)
struct EngineSeamTests {
    /// A Piper voice as the voices list gives it: its identifier is the path of its `.onnx`.
    static let piperVoice = VoiceDescription(
        name: "en_us-test-medium", identifier: "/nonexistent/voices/en_US-test-medium.onnx", languages: ["en-us"],
        engine: "piper", capabilities: PiperEngine.helper.capabilities
    )

    /// A backend that knows `piperVoice` on a speech thread whose Piper helper does not exist,
    /// reporting to `recorder`.
    static func backendWithoutPiperHelper(reportingTo recorder: EventRecorder) throws -> (SpeechThread, EngineBackend) {
        let missing = EngineHelperKind(
            engine: "piper", executableName: "announced-piper-missing",
            environmentVariable: "ANNOUNCED_TEST_NO_SUCH_VARIABLE"
        )
        let thread = SpeechThread.start(engines: [
            EspeakEngine(), PiperEngine(idleUnload: .seconds(300), helper: missing),
        ])
        let backend = try EngineBackend(
            thread: thread, output: NullAudioOutput(), logger: TestAudio.logger, eventHandler: recorder.handler,
            installedVoices: { [Self.piperVoice] }
        )
        return (thread, backend)
    }

    @Test(
        "a Piper voice's post goes to Piper; a missing Piper helper fails that post naming where it looked, and espeak-ng's posts around it speak"
    )
    func missingPiperHelperCostsOnlyItsPost() async throws {
        var recorder = EventRecorder()
        let (thread, backend) = try Self.backendWithoutPiperHelper(reportingTo: recorder)
        #expect(backend.voices.last == Self.piperVoice)
        #expect(backend.voices.contains { $0.name == "en-us" })
        #expect(backend.engineName(forVoice: Self.piperVoice.identifier) == "piper")
        #expect(backend.engineName(forVoice: "gmw/en-US") == "espeak-ng")

        backend.speak(Utterance(seq: 1, text: "Before.", voice: "en-us", rate: 450))
        backend.speak(Utterance(seq: 2, text: "Natural.", voice: Self.piperVoice.identifier))
        backend.speak(Utterance(seq: 3, text: "After.", voice: "en-us", rate: 450))
        let events = await recorder.events(untilFinished: 3)

        #expect(events.outcome(of: 1) == .completed)
        #expect(events.outcome(of: 3) == .completed)
        #expect(!events.contains(.started(seq: 2)))
        guard case .failed(let message, 0)? = events.outcome(of: 2) else {
            Issue.record("expected the Piper post to fail, got \(String(describing: events.outcome(of: 2)))")
            return
        }
        #expect(message.contains("the piper helper announced-piper-missing was not found (looked at "), "\(message)")
        #expect(message.contains("ANNOUNCED_TEST_NO_SUCH_VARIABLE"), "\(message)")
        #expect(thread.piper.loadState.pid == 0 && thread.piper.loadState.voice == nil)
    }

    @Test(
        "what Piper cannot say in a Piper voice (spell, a say-as letter, punctuation modes) is spoken by espeak-ng's voice for its language; plain words stay Piper's"
    )
    func spellingInAPiperVoiceGoesToEspeak() async throws {
        var recorder = EventRecorder()
        let (_, backend) = try Self.backendWithoutPiperHelper(reportingTo: recorder)
        let piper = Self.piperVoice.identifier
        let utterances = [
            Utterance(seq: 1, text: "ab#", voice: piper, rate: 450, spell: true),
            Utterance(
                seq: 2, text: #"<speak>shift <say-as interpret-as="characters">a</say-as></speak>"#, ssml: true,
                voice: piper, rate: 450),
            Utterance(seq: 3, text: "5 $.", voice: piper, rate: 450, punctuation: .all),
            Utterance(seq: 4, text: "5 $.", voice: piper, rate: 450, punctuation: .some),
            Utterance(seq: 5, text: "Natural.", voice: piper),
        ]
        for utterance in utterances[..<4] {
            #expect(backend.engineName(for: utterance) == "espeak-ng")
            #expect(backend.routed(utterance).voice == "gmw/en-US", "espeak-ng's voice for en-us")
        }
        #expect(backend.engineName(for: utterances[4]) == "piper")
        #expect(backend.routed(utterances[4]) == utterances[4])
        for utterance in utterances { backend.speak(utterance) }
        let events = await recorder.events(untilFinished: 5)
        for seq in 1...4 {
            #expect(
                events.outcome(of: UInt64(seq)) == .completed,
                "post \(seq) is espeak-ng's, so the missing Piper helper does not matter")
        }
        guard case .failed? = events.outcome(of: 5) else {
            Issue.record(
                "the plain post is Piper's, whose helper is missing: \(String(describing: events.outcome(of: 5)))")
            return
        }
    }
}
