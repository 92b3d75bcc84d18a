// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import EngineWire
import Testing

/// The frame loop every helper shares (HelperRuntime), through each real helper's pipes: the same
/// answers from espeak-ng's helper and Piper's.
@Suite("The helpers' shared runtime: one frame loop, whatever the engine", .onBlockingThreads)
struct HelperRuntimeTests {
    /// Drives `helper` through the loop's rules with `voice`, one of its engine's voices: `ready`
    /// first; an `abort` between utterances is ignored; an utterance is `voiceSelected`, audio and
    /// `done` 0; a voice the engine has not is answered and `done`, and the helper goes on; a
    /// frame this build does not know ends the helper with status 2.
    static func checkFrameLoop(_ helper: PiperHelper, voice: String, unknownVoice: String) throws {
        guard case .ready? = helper.next(timeout: 60) else {
            Issue.record("no ready; stderr: \(helper.errors)")
            return
        }
        helper.send(.abort)
        helper.send(PiperHelper.request("Saved.", voice: voice))
        let spoken = helper.utterance(timeout: 120)
        #expect(spoken.first == .voiceSelected, "stderr: \(helper.errors)")
        #expect(spoken.last == .done(status: 0))
        #expect(!spoken.samples.isEmpty, "audio between voiceSelected and done")

        helper.send(PiperHelper.request("Saved.", voice: unknownVoice))
        let refused = helper.utterance(timeout: 60)
        #expect(refused.count == 2 && refused.last == .done(status: 0), "\(refused)")
        #expect(refused.first == .voiceUnknown || { if case .voiceFailed = refused.first { true } else { false } }())

        helper.send(PiperHelper.request("Saved again.", voice: voice))
        #expect(helper.utterance(timeout: 120).last == .done(status: 0), "the helper goes on after a voice it has not")

        helper.send(bytes: [0x00, 0, 0, 0, 0])
        #expect(helper.waitForExit() == 2, "stderr: \(helper.errors)")
    }

    @Test(
        "announced-espeak: ready, abort between utterances ignored, an utterance, an unknown voice, a malformed frame ends it with 2"
    )
    func espeakHelper() throws {
        let helper = try PiperHelper(executable: PiperTestFiles.builtExecutable("announced-espeak"))
        try Self.checkFrameLoop(helper, voice: "gmw/en-US", unknownVoice: "no-such-voice")
    }

    @Test(
        "announced-piper: the same answers from the same loop",
        .enabled(if: PiperTestFiles.isFetched, "\(PiperTestFiles.missing)")
    )
    func piperHelper() throws {
        let helper = try PiperHelper()
        try Self.checkFrameLoop(
            helper, voice: PiperTestFiles.voice, unknownVoice: PiperTestFiles.voiceDirectory + "/no-such-voice.onnx")
    }
}
