// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import EspeakHelperWire
import Logging

/// Speaks jobs with espeak-ng in the helper process, playing its audio here. Lives on, and is
/// used only by, the speech thread.
final class UtteranceSpeaker {
    /// The punctuation spoken in `some` mode: symbols, not the marks that end sentences and
    /// clauses (those are heard as pauses).
    static let somePunctuation = "#$%&*+/<=>@\\^_|~"

    private let helper: EspeakHelperProcess
    private let sampleRate: Int
    private let earcon: [Int16]
    private let boundaryEarcon: [Int16]

    init(helper: EspeakHelperProcess) {
        self.helper = helper
        sampleRate = helper.sampleRate
        earcon = Earcon.samples(sampleRate: sampleRate)
        boundaryEarcon = Earcon.boundarySamples(sampleRate: sampleRate)
    }

    /// Speaks one utterance and reports its events, ending with exactly one `finished`.
    func perform(_ job: QueuedUtterance) {
        let utterance = job.utterance
        let audioPath = job.audioPath
        let seq = utterance.seq
        audioPath.logger.debug(
            "speaking",
            metadata: ["seq": "\(seq)", "voice": "\(utterance.voice)", "chars": "\(utterance.text.unicodeScalars.count)"]
        )
        if job.isAbortRequested {
            audioPath.eventHandler(.finished(seq: seq, outcome: .aborted(spokenChars: 0)))
            return
        }
        let spelled = utterance.spell && !utterance.ssml ? TextPositionMap(spelling: utterance.text) : nil
        let synthesized = spelled.map { ($0.synthesizedText, $0.isSSML) } ?? (utterance.text, utterance.ssml)
        switch begin(request(for: utterance, text: synthesized.0, ssml: synthesized.1), audioPath: audioPath, seq: seq) {
        case .failed(let message):
            audioPath.eventHandler(.finished(seq: seq, outcome: .failed(message: message, spokenChars: 0)))
            return
        case .speaking:
            break
        }
        do {
            try audioPath.output.begin(seq: seq, sampleRate: sampleRate)
        } catch {
            audioPath.logger.error("audio output failed", metadata: ["seq": "\(seq)", "error": "\(error)"])
            skipUtterance()
            audioPath.eventHandler(.finished(seq: seq, outcome: .failed(message: "\(error)", spokenChars: 0)))
            return
        }
        audioPath.activity?.utteranceBegan()
        let map = spelled ?? TextPositionMap(text: utterance.text, ssml: utterance.ssml)
        let run = UtteranceRun(job: job, sampleRate: sampleRate, map: map)
        if utterance.earcon {
            let samples = utterance.earconSound == .boundary ? boundaryEarcon : earcon
            samples.withUnsafeBufferPointer { _ = run.feed($0) }
        }
        run.beginSpeech()
        play(run)
        run.finish()
        audioPath.activity?.utteranceEnded()
        if !helper.isRunning {
            // Restart now, after the terminal line, so the next post does not wait for espeak-ng
            // to load; if this fails, the next post tries again and reports why.
            _ = startHelper(audioPath.logger)
        }
    }

    /// Starts a new helper process; nil when it runs, else why not (also logged).
    private func startHelper(_ logger: Logger) -> String? {
        do {
            try helper.start()
            logger.notice("espeak-ng helper started", metadata: ["helper": "\(helper.path)"])
            return nil
        } catch {
            logger.error("espeak-ng helper cannot start", metadata: ["error": "\(error)"])
            return error.message
        }
    }

    private enum Beginning {
        case speaking
        case failed(String)
    }

    /// Sends the utterance to the helper (starting a new helper if the last one died) and
    /// reads its answer about the voice.
    private func begin(_ request: SynthesisRequest, audioPath: AudioPath, seq: UInt64) -> Beginning {
        for attempt in 0..<2 {
            if !helper.isRunning || attempt > 0, let problem = startHelper(audioPath.logger) {
                return .failed(problem)
            }
            guard helper.send(.synthesize(request)) else { continue }
            switch helper.next() {
            case .voiceSelected?:
                return .speaking
            case .voiceUnknown?:
                skipUtterance()
                let message = "espeak-ng could not load the voice \(request.voice) (its data may be missing or damaged); `espeak-ng --voices` lists the voices it has"
                audioPath.logger.warning("\(message)", metadata: ["seq": "\(seq)"])
                return .failed(message)
            default:
                // The helper died before answering; start another and send it once more (unless
                // it broke its sandbox: this request would only break it again).
                let ending = helper.stop()
                audioPath.logger.warning("espeak-ng helper ended", metadata: ["seq": "\(seq)", "how": "\(ending)"])
                if let breach = helper.sandboxBreach {
                    audioPath.logger.error("espeak-ng broke its sandbox", metadata: ["seq": "\(seq)", "breach": "\(breach)"])
                    return .failed(Self.sandboxMessage(breach))
                }
                continue
            }
        }
        return .failed("the espeak-ng helper ended twice before it could speak this post; see the daemon's log")
    }

    /// Reads the helper's words, marks and audio into `run` until the utterance is done. When the
    /// run stops early it reports its end at once, asks the helper to stop, and reads on to the
    /// helper's `done` (what comes until then is dropped), so the next post finds it idle.
    private func play(_ run: UtteranceRun) {
        var stopping = false
        func stopNow() {
            stopping = true
            _ = helper.send(.abort)
            run.finish()
        }
        if run.stop != nil { stopNow() }
        while let message = helper.next() {
            switch message {
            case .samples(let samples):
                guard !stopping else { continue }
                let fed = samples.withUnsafeBufferPointer { run.feed($0) }
                if !fed { stopNow() }
            case .word(let sample, let textPosition, let length):
                if !stopping { run.collectWord(sample: Int(sample), textPosition: Int(textPosition), length: Int(length)) }
            case .mark(let sample, let name):
                if !stopping { run.collectMark(sample: Int(sample), name: name) }
            case .done(let status):
                if run.stop == nil, status != 0 {
                    run.stop = .failed("espeak-ng could not synthesize the text (error \(status))")
                }
                if run.stop == nil, !stopping { run.collectSkippedMarksAtEnd() }
                return
            default:
                break
            }
        }
        // The helper died inside espeak-ng (this text crashed it), or is stuck there.
        let stuck = helper.isStuck
        let ending = helper.stop()
        run.job.audioPath.logger.error(
            stuck ? "espeak-ng stopped responding" : "espeak-ng crashed",
            metadata: ["seq": "\(run.job.utterance.seq)", "how": "\(ending)"]
        )
        if let breach = helper.sandboxBreach {
            run.job.audioPath.logger.error("espeak-ng broke its sandbox", metadata: ["seq": "\(run.job.utterance.seq)", "breach": "\(breach)"])
            if run.stop != .aborted { run.stop = .failed(Self.sandboxMessage(breach)) }
        } else if run.stop != .aborted {
            let what =
                stuck
                ? "espeak-ng stopped responding while speaking this text (nothing for \(EspeakHelperProcess.silenceLimit / 1000) s; its process \(ending))"
                : "espeak-ng crashed while speaking this text (its process \(ending))"
            run.stop = .failed(
                what + "; the speech engine was restarted and later posts speak. "
                    + "The text may trigger a known espeak-ng bug; rephrasing it avoids that."
            )
        }

    }

    /// The post's failure when the helper broke its sandbox (`breach`: "system call socket").
    static func sandboxMessage(_ breach: String) -> String {
        "the speech engine was stopped for breaking its sandbox (\(breach)) while speaking this text; "
            + "the engine was restarted and later posts speak. espeak-ng should never need that call: please report "
            + "this text to announced's developers."
    }

    /// Stops the utterance the helper has started and reads to its end.
    private func skipUtterance() {
        _ = helper.send(.abort)
        while let message = helper.next() {
            if case .done = message { return }
        }
        helper.stop()
    }

    /// The helper's request for `utterance`, with parameters clamped to espeak-ng's ranges.
    /// `text` and `ssml` come from the text position map: a spelled text is SSML even when the
    /// post's was not.
    private func request(for utterance: Utterance, text: String, ssml: Bool) -> SynthesisRequest {
        let punctuation: SynthesisRequest.Punctuation
        switch utterance.punctuation {
        case .none: punctuation = .none
        case .all: punctuation = .all
        case .some: punctuation = .some
        }
        return SynthesisRequest(
            voice: utterance.voice,
            rate: Int32(clamping: min(max(utterance.rate, 80), 450)),
            pitch: Int32(clamping: min(max(utterance.pitch, 0), 100)),
            volume: Int32(clamping: min(max(utterance.volume, 0), 200)),
            punctuation: punctuation,
            punctuationList: Self.somePunctuation,
            ssml: ssml,
            text: text
        )
    }
}
