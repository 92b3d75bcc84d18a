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
        name: "en_us-test-medium", identifier: "/nonexistent/voices/en_US-test-medium.onnx", languages: ["en-us"]
    )

    @Test("a Piper voice's post goes to Piper; a missing Piper helper fails that post naming where it looked, and espeak-ng's posts around it speak")
    func missingPiperHelperCostsOnlyItsPost() async throws {
        let missing = EngineHelperKind(
            engine: "piper", executableName: "announced-piper-missing", environmentVariable: "ANNOUNCED_TEST_NO_SUCH_VARIABLE"
        )
        let thread = SpeechThread.start(piperIdleUnload: .seconds(300), piperHelper: missing)
        var recorder = EventRecorder()
        let backend = try EngineBackend(
            thread: thread, output: NullAudioOutput(), logger: TestAudio.logger, eventHandler: recorder.handler,
            piperVoices: { [Self.piperVoice] }
        )
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
}
