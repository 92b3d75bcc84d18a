// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import EngineWire
import Foundation
import TestSupport
import Testing

/// The runtime every engine helper shares (`HelperRuntime`), through a helper of the tests' own
/// (`announced-helper-probe`, Tests/HelperRuntimeProbe) on real pipes: the frame loop, the answers
/// to voices, `prepare` and `abort`, and the exit statuses it promises (0 when the daemon is
/// gone, 1 when the engine cannot start, 2 on a request it cannot take). The same loop through
/// announced-espeak and announced-piper is in PiperEngineTests.
@Suite("HelperRuntime: the frame loop, voices, prepare, abort and exit statuses", .onBlockingThreads)
struct HelperRuntimeTests {
    static let probe = HelperProcess.builtExecutable("announced-helper-probe")

    /// A started probe that has sent its `ready`, checked.
    static func readyProbe(environment extra: [String: String] = [:]) throws -> HelperProcess {
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        for (key, value) in extra { environment[key] = value }
        let helper = try HelperProcess(spawning: probe, environment: environment)
        let ready = helper.next(timeout: 30)
        try #require(
            ready == .ready(sampleRate: 16_000, voices: [EngineVoice(name: "tone", languages: ["en"])]),
            "stderr: \(helper.errors)")
        return helper
    }

    @Test("an utterance: voiceSelected, the engine's word, samples and mark in order, then done 0")
    func utterance() throws {
        let helper = try Self.readyProbe()
        helper.send(HelperProcess.synthesize("Saved", voice: "tone"))
        let block = (0..<160).map { Int16($0 * 100) }
        #expect(
            helper.utterance()
                == [
                    .voiceSelected, .word(sample: 0, textPosition: 1, length: 5), .samples(block), .samples(block),
                    .samples(block), .mark(sample: 480, name: "end"), .done(status: 0),
                ])
        #expect(helper.stop() == 0, "the daemon closing the pipe ends the helper with 0")
    }

    @Test("an unknown voice and one that fails are answered, logged, and the helper goes on")
    func voiceAnswers() throws {
        let helper = try Self.readyProbe()
        helper.send(HelperProcess.synthesize("Saved", voice: "no-such-voice"))
        #expect(helper.utterance() == [.voiceUnknown, .done(status: 0)])
        helper.send(HelperProcess.synthesize("Saved", voice: "broken"))
        #expect(helper.utterance() == [.voiceFailed(message: "the broken voice cannot be loaded"), .done(status: 0)])
        helper.send(HelperProcess.synthesize("Saved", voice: "tone"))
        #expect(helper.utterance().last == .done(status: 0))
        #expect(helper.stop() == 0)
        #expect(helper.errors.contains("announced-helper-probe: the broken voice cannot be loaded"), "\(helper.errors)")
    }

    @Test("prepare: answered voicePrepared 0, or 1 with the reason, for each kind of voice")
    func prepare() throws {
        let helper = try Self.readyProbe()
        helper.send(.prepare(voice: "tone"))
        #expect(helper.next() == .voicePrepared(status: 0, message: ""))
        helper.send(.prepare(voice: "nowhere"))
        #expect(helper.next() == .voicePrepared(status: 1, message: "no voice nowhere"))
        helper.send(.prepare(voice: "broken"))
        #expect(helper.next() == .voicePrepared(status: 1, message: "the broken voice cannot be loaded"))
        #expect(helper.stop() == 0)
    }

    @Test("abort stops an utterance with done 0; an abort between utterances is ignored; the next one speaks")
    func abort() throws {
        let helper = try Self.readyProbe()
        helper.send(.abort)
        helper.send(HelperProcess.synthesize("forever", voice: "tone"))
        #expect(helper.next() == .voiceSelected)
        guard case .samples = helper.next() else {
            Issue.record("no samples from an endless utterance; stderr: \(helper.errors)")
            return
        }
        helper.send(.abort)
        #expect(helper.utterance().last == .done(status: 0))
        helper.send(HelperProcess.synthesize("Saved", voice: "tone"))
        let next = helper.utterance()
        #expect(next.first == .voiceSelected && next.samples.count == 480 && next.last == .done(status: 0), "\(next)")
        #expect(helper.stop() == 0)
    }

    @Test("the engine's own error status ends its utterance: done 7")
    func engineStatus() throws {
        let helper = try Self.readyProbe()
        helper.send(HelperProcess.synthesize("fail", voice: "tone"))
        #expect(helper.utterance() == [.voiceSelected, .done(status: 7)])
        #expect(helper.stop() == 0)
    }

    @Test("a request other than abort during an utterance ends the helper with 2")
    func requestDuringUtterance() throws {
        let helper = try Self.readyProbe()
        helper.send(HelperProcess.synthesize("forever", voice: "tone"))
        #expect(helper.next() == .voiceSelected)
        helper.send(HelperProcess.synthesize("Saved", voice: "tone"))
        #expect(helper.waitForExit() == 2, "stderr: \(helper.errors)")
    }

    @Test("a malformed frame between utterances ends the helper with 2")
    func malformedFrame() throws {
        let helper = try Self.readyProbe()
        helper.send(bytes: [0x00, 0, 0, 0, 0])
        #expect(helper.waitForExit() == 2, "stderr: \(helper.errors)")
    }

    @Test("an engine that cannot start says initializationFailed with its code, logs why, and exits 1")
    func initializationFails() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["PROBE_FAIL_INITIALIZATION"] = "1"
        let helper = try HelperProcess(spawning: Self.probe, environment: environment)
        #expect(helper.next(timeout: 30) == .initializationFailed(code: 5))
        #expect(helper.waitForExit() == 1)
        #expect(helper.errors.contains("announced-helper-probe: cannot initialize: asked to fail"), "\(helper.errors)")
    }
}
