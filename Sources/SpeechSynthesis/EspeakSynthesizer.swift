import AnnounceCore
import CEspeakNG
import Foundation
import Logging

/// Speaks jobs with espeak-ng. Lives on, and is used only by, the synthesis thread.
final class EspeakSynthesizer {
    /// The punctuation spoken in `some` mode: symbols, not the marks that end sentences and
    /// clauses (those are heard as pauses).
    static let somePunctuation = "#$%&*+/<=>@\\^_|~"

    private let sampleRate: Int
    private let earcon: [Int16]
    private var currentVoice: String?

    init(sampleRate: Int) {
        self.sampleRate = sampleRate
        earcon = Earcon.samples(sampleRate: sampleRate)
    }

    /// Speaks one utterance and reports its events, ending with exactly one `finished`.
    func perform(_ job: SpeechJob) {
        let utterance = job.utterance
        let session = job.session
        let seq = utterance.seq
        session.logger.debug(
            "speaking",
            metadata: ["seq": "\(seq)", "voice": "\(utterance.voice)", "chars": "\(utterance.text.unicodeScalars.count)"]
        )

        guard selectVoice(utterance.voice) else {
            let message = "unknown voice '\(utterance.voice)': espeak-ng has no such voice. Use one of the listed voices, e.g. en-us, de or fr-fr."
            session.logger.warning("\(message)", metadata: ["seq": "\(seq)"])
            session.eventHandler(.finished(seq: seq, outcome: .failed(message: message, spokenChars: 0)))
            return
        }
        applyParameters(of: utterance)
        if job.isAbortRequested {
            session.eventHandler(.finished(seq: seq, outcome: .aborted(spokenChars: 0)))
            return
        }
        do {
            try session.output.begin(seq: seq, sampleRate: sampleRate)
        } catch {
            session.logger.error("audio output failed", metadata: ["seq": "\(seq)", "error": "\(error)"])
            session.eventHandler(.finished(seq: seq, outcome: .failed(message: "\(error)", spokenChars: 0)))
            return
        }

        let map =
            utterance.spell && !utterance.ssml
            ? TextPositionMap(spelling: utterance.text) : TextPositionMap(text: utterance.text, ssml: utterance.ssml)
        let run = SynthesisRun(job: job, sampleRate: sampleRate, map: map)
        if utterance.earcon {
            earcon.withUnsafeBufferPointer { _ = run.feed($0) }
        }
        if run.stop == nil {
            synthesize(run)
        }
        run.finish()
    }

    /// Selects a voice, keeping the current one when it is the same.
    private func selectVoice(_ name: String) -> Bool {
        if name == currentVoice { return true }
        currentVoice = nil
        guard !name.isEmpty, espeak_SetVoiceByName(name) == EE_OK else { return false }
        currentVoice = name
        return true
    }

    /// Rate, pitch, volume and punctuation, clamped to espeak's ranges.
    private func applyParameters(of utterance: Utterance) {
        espeak_SetParameter(espeakRATE, Int32(clamping: min(max(utterance.rate, 80), 450)), 0)
        espeak_SetParameter(espeakPITCH, Int32(clamping: min(max(utterance.pitch, 0), 100)), 0)
        espeak_SetParameter(espeakVOLUME, Int32(clamping: min(max(utterance.volume, 0), 200)), 0)
        switch utterance.punctuation {
        case .none:
            espeak_SetParameter(espeakPUNCTUATION, Int32(espeakPUNCT_NONE.rawValue), 0)
        case .all:
            espeak_SetParameter(espeakPUNCTUATION, Int32(espeakPUNCT_ALL.rawValue), 0)
        case .some:
            var list = Self.somePunctuation.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
            list.append(0)
            list.withUnsafeBufferPointer { _ = espeak_SetPunctuationList($0.baseAddress) }
            espeak_SetParameter(espeakPUNCTUATION, Int32(espeakPUNCT_SOME.rawValue), 0)
        }
    }

    /// Runs espeak-ng over the run's text; the callback feeds the output.
    private func synthesize(_ run: SynthesisRun) {
        run.beginSpeech()
        activeRun = run
        defer { activeRun = nil }
        let flags = UInt32(espeakCHARS_UTF8) | (run.map.isSSML ? UInt32(espeakSSML) : 0)
        let status = run.map.synthesizedText.withCString { text in
            espeak_Synth(text, strlen(text) + 1, 0, POS_CHARACTER, 0, flags, nil, nil)
        }
        if run.stop == nil, status != EE_OK {
            run.stop = .failed("espeak-ng could not synthesize the text (error \(status.rawValue))")
        }
    }
}

/// The run the synthesis callback feeds. Touched only on the synthesis thread.
nonisolated(unsafe) private var activeRun: SynthesisRun?

/// espeak-ng's synthesis callback: returns 1 to stop synthesis.
let espeakSynthCallback: @convention(c) (UnsafeMutablePointer<Int16>?, Int32, UnsafeMutablePointer<espeak_EVENT>?) -> Int32 = {
    samples, count, events in
    guard let run = activeRun else { return 1 }
    return run.handle(samples: samples, count: Int(count), events: events) ? 0 : 1
}
