// SPDX-License-Identifier: GPL-3.0-or-later
// announced-helper-probe: a helper on the shared runtime (HelperRuntime) with an engine of the
// test's own, so HelperRuntimeTests check the runtime's frame loop, abort, voice answers and exit
// statuses apart from espeak-ng and Piper.
import EngineWire
import Glibc
import HelperRuntime

/// The probe's engine. Voices: `tone` speaks, `broken` fails to load, any other is unknown.
/// Texts: `forever` sends 10 ms blocks until the daemon aborts; `fail` ends with status 7; any
/// other text is one word, one mark and ``block`` three times.
final class ProbeEngine: HelperEngine {
    /// 10 ms of a ramp at 16 kHz: the samples every block holds.
    static let block: [Int16] = (0..<160).map { Int16($0 * 100) }
    let runtime: HelperRuntime
    let sampleRate: Int32 = 16_000
    let voices = [EngineVoice(name: "tone", languages: ["en"])]

    init(runtime: HelperRuntime) {
        self.runtime = runtime
    }

    func selectVoice(_ voice: String) -> VoiceSelection {
        switch voice {
        case "tone": .selected
        case "broken": .failed("the broken voice cannot be loaded")
        default: .unknown
        }
    }

    func prepare(voice: String) -> VoiceSelection? { selectVoice(voice) }

    func speak(_ utterance: SynthesisRequest) -> Int32 {
        switch utterance.text {
        case "forever":
            while !runtime.shouldStop() {
                guard sendBlock() else { return 0 }
            }
            return 0
        case "fail":
            return 7
        default:
            runtime.send(.word(sample: 0, textPosition: 1, length: Int32(utterance.text.unicodeScalars.count)))
            for _ in 0..<3 where !runtime.shouldStop() { sendBlock() }
            runtime.send(.mark(sample: 480, name: "end"))
            return 0
        }
    }

    @discardableResult
    private func sendBlock() -> Bool {
        Self.block.withUnsafeBufferPointer { runtime.send(samples: $0) }
    }
}

HelperRuntime.run(name: "announced-helper-probe") { runtime in
    if getenv("PROBE_FAIL_INITIALIZATION") != nil {
        runtime.say("cannot initialize: asked to fail")
        runtime.failInitialization(code: 5)
    }
    return ProbeEngine(runtime: runtime)
}
