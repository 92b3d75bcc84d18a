// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import AnnounceProtocol
import EngineWire
import Logging

/// Speaks jobs with their engine's helper process, playing its audio here. Lives on, and is used
/// only by, the speech thread.
final class UtteranceSpeaker {
    /// The punctuation spoken in `some` mode: symbols, not the marks that end sentences and
    /// clauses (those are heard as pauses).
    static let somePunctuation = "#$%&*+/<=>@\\^_|~"

    private let thread: SpeechThread
    /// The earcons at each sample rate met so far (every engine's helper says its own).
    private var earcons: [Int: (screenChange: [Int16], boundary: [Int16])] = [:]

    /// A speaker for `thread`, with the earcons made ahead at `sampleRates` (those of the engines
    /// that started with the thread).
    init(thread: SpeechThread, sampleRates: [Int]) {
        self.thread = thread
        for rate in sampleRates {
            earcons[rate] = (Earcon.samples(sampleRate: rate), Earcon.boundarySamples(sampleRate: rate))
        }
    }

    private func earcon(_ sound: EarconSound, sampleRate: Int) -> [Int16] {
        if earcons[sampleRate] == nil {
            earcons[sampleRate] = (
                Earcon.samples(sampleRate: sampleRate), Earcon.boundarySamples(sampleRate: sampleRate)
            )
        }
        return sound == .boundary ? earcons[sampleRate]!.boundary : earcons[sampleRate]!.screenChange
    }

    /// Speaks one utterance, run after run, and reports its events, ending with exactly one
    /// `finished`: `started` with the first run's first audio, words and marks at their places in
    /// the post's text, and the post's end after its last run (or the first that fails). A post of
    /// Each run is played from its engine's speech cache when it holds the run's rendering, and
    /// kept there when it is rendered whole, so a mixed-language post said again is played from
    /// the cache run by run.
    func perform(_ job: QueuedUtterance) {
        let utterance = job.utterance
        let audioPath = job.audioPath
        let first = job.parts[0]
        let engine = first.engine
        let seq = utterance.seq
        audioPath.logger.debug(
            "speaking",
            metadata: [
                "seq": "\(seq)", "engine": "\(engine.name)", "voice": "\(first.utterance.voice)",
                "chars": "\(utterance.text.unicodeScalars.count)", "runs": "\(job.parts.count)",
            ]
        )
        if thread.playback == .aborted {
            audioPath.eventHandler(.finished(seq: seq, outcome: .aborted(spokenChars: 0)))
            return
        }
        let spoken = first.utterance
        let spelled = spoken.spell && !spoken.ssml ? TextPositionMap(spelling: spoken.text) : nil
        let synthesized = spelled.map { ($0.synthesizedText, $0.isSSML) } ?? (spoken.text, spoken.ssml)
        let synthesis = request(for: spoken, text: synthesized.0, ssml: synthesized.1)
        let cache = engine.renderedAudio
        let cacheKey = cache.map { _ in RenderedAudioCache.Key(synthesis) }
        if let cache, let cacheKey, let cached = cache.audio(for: cacheKey) {
            return speakFromCache(cached, job: job, spelled: spelled)
        }
        let forgetCount = cache?.forgetCount ?? 0
        let helper: EngineHelperProcess
        // An SSML text's marks are found while the helper reads the text and starts on it, not
        // before the first sample.
        var marks: [SSMLMarks.Mark]?
        let findMarks = { if marks == nil { marks = spoken.ssml ? SSMLMarks.marks(in: spoken.text) : [] } }
        // A rested output reconnects while the helper synthesizes the first audio.
        let whileHelperReads = {
            findMarks()
            audioPath.output.wake()
        }
        switch begin(synthesis, part: first, seq: seq, logger: audioPath.logger, whileHelperReads: whileHelperReads) {
        case .failed(let message, let failed):
            return endUnstarted(job, .failed(message: message, spokenChars: 0), helper: failed, skipping: false)
        case .aborted(let held):
            return endUnstarted(job, .aborted(spokenChars: 0), helper: held, skipping: true)
        case .speaking(let speaking):
            helper = speaking
        }
        let sampleRate = helper.sampleRate
        findMarks()
        guard
            let run = beginRun(
                job, part: first, sampleRate: sampleRate, spelled: spelled, marks: marks ?? [], helper: helper)
        else {
            engine.giveBack(helper, voice: spoken.voice, logger: audioPath.logger)
            return
        }
        var recorder = cache.map { RenderedAudioRecorder(largest: $0.largestRendering) }
        // The next language run is synthesized while this one plays (from this one's first
        // samples on: the helper has made them, so the next run's synthesis does not hold them up).
        var ahead: RunAhead?
        play(run, helper: helper, engine: engine, recorder: &recorder) {
            ahead = synthesizeAhead(job, index: 1, playing: engine)
        }
        if let cache, let cacheKey {
            store(recorder, sampleRate: sampleRate, in: cache, key: cacheKey, since: forgetCount, job: job, part: first)
        }
        // A helper is given back once its run is spoken; the one of a run that stopped the post
        // (which may have died) after the post's terminal line.
        let held = run.stop == nil ? nil : (engine, helper, spoken.voice)
        if held == nil { engine.giveBack(helper, voice: spoken.voice, logger: audioPath.logger) }
        speakLaterRuns(of: job, in: run, sampleRate: sampleRate, ahead: &ahead, held: held)
    }

    /// Speaks `job` with its first run's rendering from the speech cache, then its later runs.
    private func speakFromCache(_ cached: RenderedAudio, job: QueuedUtterance, spelled: TextPositionMap?) {
        let first = job.parts[0]
        let spoken = first.utterance
        job.audioPath.logger.debug(
            "speaking from the speech cache",
            metadata: ["seq": "\(job.utterance.seq)", "samples": "\(cached.samples.count)"])
        let marks = spoken.ssml ? SSMLMarks.marks(in: spoken.text) : []
        guard let run = beginRun(job, part: first, sampleRate: cached.sampleRate, spelled: spelled, marks: marks)
        else { return }
        cached.replay(into: run)
        var ahead: RunAhead?
        speakLaterRuns(of: job, in: run, sampleRate: cached.sampleRate, ahead: &ahead, held: nil)
    }

    /// Ends `job` with `outcome` before its first audio, and gives its first run's engine back
    /// `helper` (when it got one), told first to skip the utterance when `skipping`.
    private func endUnstarted(
        _ job: QueuedUtterance, _ outcome: SpeechOutcome, helper: EngineHelperProcess?, skipping: Bool
    ) {
        let first = job.parts[0]
        job.audioPath.eventHandler(.finished(seq: job.utterance.seq, outcome: outcome))
        guard let helper else { return }
        if skipping { skipUtterance(helper, engine: first.engine) }
        first.engine.giveBack(helper, voice: first.utterance.voice, logger: job.audioPath.logger)
    }

    /// Keeps the rendering `recorder` made of `part` of `job` in `cache` (when it is complete).
    private func store(
        _ recorder: RenderedAudioRecorder?, sampleRate: Int, in cache: RenderedAudioCache, key: RenderedAudioCache.Key,
        since forgetCount: UInt64, job: QueuedUtterance, part: UtterancePart
    ) {
        guard let rendering = recorder?.rendering(sampleRate: sampleRate) else { return }
        cache.store(rendering, for: key, renderedSince: forgetCount)
        let usage = cache.usage
        job.audioPath.logger.debug(
            "speech cache stored",
            metadata: [
                "seq": "\(job.utterance.seq)", "offset": "\(part.offset)", "bytes": "\(usage.bytes)",
                "entries": "\(usage.entries)", "limit": "\(usage.limit)",
            ]
        )
    }

    /// Speaks the runs of `job` after its first into `run`, ends the post, and gives back the
    /// helpers still held: the one of a run that stopped the post (`held`), after the post's
    /// terminal line, and the one of a run synthesized ahead but not reached.
    private func speakLaterRuns(
        of job: QueuedUtterance, in run: UtteranceRun, sampleRate: Int, ahead: inout RunAhead?,
        held first: (any SpeechEngine, EngineHelperProcess, String)?
    ) {
        let audioPath = job.audioPath
        var held = first
        for index in job.parts.indices.dropFirst() where run.stop == nil {
            held = speak(index, of: job, in: run, sampleRate: sampleRate, ahead: &ahead)
        }
        run.finish()
        // A run synthesized ahead that the post's stop left unspoken is stopped in its helper
        // after the terminal line, as the helper of the run that stopped is given back.
        if let ahead { abandon(ahead, logger: audioPath.logger) }
        if let (engine, helper, voice) = held { engine.giveBack(helper, voice: voice, logger: audioPath.logger) }
        audioPath.activity?.utteranceEnded()
    }

    /// Begins the output at `sampleRate` and the post's run with its first language run `part`,
    /// the earcon fed; nil when the output failed (the post then ended `error`, and `helper`, if
    /// any, was told to stop).
    private func beginRun(
        _ job: QueuedUtterance, part: UtterancePart, sampleRate: Int, spelled: TextPositionMap?,
        marks: [SSMLMarks.Mark],
        helper: EngineHelperProcess? = nil
    ) -> UtteranceRun? {
        let utterance = job.utterance
        let audioPath = job.audioPath
        let seq = utterance.seq
        do {
            try audioPath.output.begin(
                seq: seq, sampleRate: sampleRate, abortSignal: UtteranceAbortSignal(thread: thread))
        } catch {
            audioPath.logger.error("audio output failed", metadata: ["seq": "\(seq)", "error": "\(error)"])
            if let helper { skipUtterance(helper, engine: part.engine) }
            audioPath.eventHandler(.finished(seq: seq, outcome: .failed(message: "\(error)", spokenChars: 0)))
            return nil
        }
        audioPath.activity?.utteranceBegan()
        let map = spelled ?? TextPositionMap(text: part.utterance.text, ssml: part.utterance.ssml)
        let run = UtteranceRun(job: job, thread: thread, sampleRate: sampleRate, map: map, marks: marks)
        if utterance.earcon {
            earcon(utterance.earconSound, sampleRate: sampleRate).withUnsafeBufferPointer { _ = run.feed($0) }
        }
        run.beginPart(part, map: map, marks: marks)
        return run
    }

    /// A language run whose synthesis began while the run before it plays: its engine's helper
    /// has the run's request, and holds the run's first audio in its pipe when the run comes.
    private struct RunAhead {
        /// Its place among the post's runs.
        let index: Int
        let part: UtterancePart
        let request: SynthesisRequest
        let helper: EngineHelperProcess
        /// Its SSML marks, found while the helper synthesizes.
        let marks: [SSMLMarks.Mark]
        /// The speech cache's `forgetCount` before the request was sent.
        let forgetCount: UInt64
    }

    /// Sends the run `index` of `job` to its engine's helper, to be synthesized while the run
    /// before it plays, when that is another engine's (`playing`'s helper is busy with its own
    /// run) and its helper is ready at once (a Piper voice still loading is asked for, and
    /// waited for when its run comes). Nil when the run is to be begun when it comes.
    private func synthesizeAhead(_ job: QueuedUtterance, index: Int, playing: any SpeechEngine) -> RunAhead? {
        guard index < job.parts.count, thread.playback != .aborted else { return nil }
        let part = job.parts[index]
        let spoken = part.utterance
        let logger = job.audioPath.logger
        let request = request(for: spoken, text: spoken.text, ssml: spoken.ssml)
        // A run the speech cache holds is played from it when it comes.
        if part.engine.renderedAudio?.contains(RenderedAudioCache.Key(request)) == true { return nil }
        let forgetCount = part.engine.renderedAudio?.forgetCount ?? 0
        guard part.engine !== playing, let helper = part.engine.readyHelper(for: spoken.voice, logger: logger)
        else { return nil }
        guard helper.send(.synthesize(request)) else {
            // It died: given back, it is replaced, and the run is begun when it comes.
            helper.stop()
            part.engine.giveBack(helper, voice: spoken.voice, logger: logger)
            return nil
        }
        logger.debug(
            "synthesizing ahead",
            metadata: [
                "seq": "\(spoken.seq)", "engine": "\(part.engine.name)", "voice": "\(spoken.voice)",
                "offset": "\(part.offset)",
            ]
        )
        let marks = spoken.ssml ? SSMLMarks.marks(in: spoken.text) : []
        return RunAhead(
            index: index, part: part, request: request, helper: helper, marks: marks, forgetCount: forgetCount)
    }

    /// Stops a run synthesized ahead that will not be spoken (the post stopped before it): its
    /// helper is told to stop, read to its `done` and given back.
    private func abandon(_ ahead: RunAhead, logger: Logger) {
        skipUtterance(ahead.helper, engine: ahead.part.engine)
        ahead.part.engine.giveBack(ahead.helper, voice: ahead.part.utterance.voice, logger: logger)
    }

    /// Speaks the run `index` of `job`, after the first, into the post's `run`: from what its
    /// helper synthesized ahead (`ahead`, while the run before it played), else begun now while
    /// the output still plays what the run before left in it. The run after it is sent ahead
    /// once this one's first samples have come. A run that cannot begin, or stops, ends the post (`run.stop`);
    /// the helper it holds then is returned, to be given back after the post's terminal line.
    private func speak(
        _ index: Int, of job: QueuedUtterance, in run: UtteranceRun, sampleRate: Int, ahead: inout RunAhead?
    ) -> (any SpeechEngine, EngineHelperProcess, String)? {
        let part = job.parts[index]
        let logger = job.audioPath.logger
        let spoken = part.utterance
        var marks: [SSMLMarks.Mark]?
        let findMarks = { if marks == nil { marks = spoken.ssml ? SSMLMarks.marks(in: spoken.text) : [] } }
        let request = request(for: spoken, text: spoken.text, ssml: spoken.ssml)
        let cache = part.engine.renderedAudio
        let cacheKey = RenderedAudioCache.Key(request)
        if ahead?.index != index, let cached = cache?.audio(for: cacheKey), cached.sampleRate == sampleRate {
            logger.debug(
                "speaking a run from the speech cache",
                metadata: ["seq": "\(spoken.seq)", "offset": "\(part.offset)", "samples": "\(cached.samples.count)"])
            findMarks()
            run.beginPart(part, map: TextPositionMap(text: spoken.text, ssml: spoken.ssml), marks: marks ?? [])
            cached.replay(into: run)
            if run.stop == nil { ahead = synthesizeAhead(job, index: index + 1, playing: part.engine) }
            return nil
        }
        var forgetCount = cache?.forgetCount ?? 0
        let beginning: Beginning
        if let synthesized = ahead, synthesized.index == index {
            ahead = nil
            marks = synthesized.marks
            forgetCount = synthesized.forgetCount
            beginning = beginAhead(synthesized, seq: spoken.seq, logger: logger)
        } else {
            beginning = begin(request, part: part, seq: spoken.seq, logger: logger, whileHelperReads: findMarks)
        }
        let helper: EngineHelperProcess
        switch beginning {
        case .failed(let message, let failed):
            run.stop = .failed(message)
            return failed.map { (part.engine, $0, spoken.voice) }
        case .aborted(let held):
            run.stop = .aborted
            if let held { skipUtterance(held, engine: part.engine) }
            return held.map { (part.engine, $0, spoken.voice) }
        case .speaking(let speaking):
            helper = speaking
        }
        guard helper.sampleRate == sampleRate else {
            skipUtterance(helper, engine: part.engine)
            run.stop = .failed(
                "\(part.engine.name) spoke at \(helper.sampleRate) Hz in a post begun at \(sampleRate) Hz")
            return (part.engine, helper, spoken.voice)
        }
        findMarks()
        run.beginPart(part, map: TextPositionMap(text: spoken.text, ssml: spoken.ssml), marks: marks ?? [])
        var recorder = cache.map { RenderedAudioRecorder(largest: $0.largestRendering) }
        play(run, helper: helper, engine: part.engine, recorder: &recorder) {
            ahead = synthesizeAhead(job, index: index + 1, playing: part.engine)
        }
        guard run.stop == nil else { return (part.engine, helper, spoken.voice) }
        if let cache {
            store(recorder, sampleRate: sampleRate, in: cache, key: cacheKey, since: forgetCount, job: job, part: part)
        }
        part.engine.giveBack(helper, voice: spoken.voice, logger: logger)
        return nil
    }

    private enum Beginning {
        case speaking(EngineHelperProcess)
        /// Why the utterance cannot be spoken, and the helper to give back, if the engine gave one.
        case failed(String, EngineHelperProcess?)
        /// Stopped before its audio began, holding the helper it had asked to synthesize, if any.
        case aborted(EngineHelperProcess?)
    }

    /// Gets the engine's helper (the engine starts or loads it as it needs), sends it the
    /// utterance and reads its answer about the voice; once more with a new helper when the
    /// first died before answering. `whileHelperReads` runs once the request is sent, while
    /// the helper reads it.
    private func begin(
        _ request: SynthesisRequest, part: UtterancePart, seq: UInt64, logger: Logger, whileHelperReads: () -> Void
    ) -> Beginning {
        let engine = part.engine
        for _ in 0..<2 {
            let helper: EngineHelperProcess
            switch engine.helper(for: request.voice, on: thread, logger: logger) {
            case .failed(let message):
                return .failed(message, nil)
            case .aborted:
                return .aborted(nil)
            case .ready(let ready):
                helper = ready
            }
            guard helper.send(.synthesize(request)) else {
                helper.stop()
                engine.giveBack(helper, voice: request.voice, logger: logger)
                continue
            }
            whileHelperReads()
            if let answered = answer(of: helper, to: request, engine: engine, seq: seq, logger: logger) {
                return answered
            }
        }
        return .failed(
            "the \(engine.name) helper ended twice before it could speak this post; see the daemon's log", nil)
    }

    /// Begins a run synthesized ahead: its helper's answer about the voice, read now; when that
    /// helper died before answering, the run is begun again as `begin` does.
    private func beginAhead(_ ahead: RunAhead, seq: UInt64, logger: Logger) -> Beginning {
        if let answered = answer(
            of: ahead.helper, to: ahead.request, engine: ahead.part.engine, seq: seq, logger: logger)
        {
            return answered
        }
        return begin(ahead.request, part: ahead.part, seq: seq, logger: logger, whileHelperReads: {})
    }

    /// The helper's answer about the voice of the `request` it was sent; nil when it died before
    /// answering (it was stopped and given back, so that the request can go to a new one), unless
    /// it broke its sandbox: this request would only break it again.
    private func answer(
        of helper: EngineHelperProcess, to request: SynthesisRequest, engine: any SpeechEngine, seq: UInt64,
        logger: Logger
    ) -> Beginning? {
        switch HelperSession(helper: helper, engine: engine).voiceAnswer(voice: request.voice) {
        case .selected:
            return thread.playback == .aborted ? .aborted(helper) : .speaking(helper)
        case .failed(let message):
            logger.warning("\(message)", metadata: ["seq": "\(seq)"])
            return .failed(message, helper)
        case .cancelled:
            // The speech thread's sessions watch no descriptor; read to `done`, it is idle.
            engine.giveBack(helper, voice: request.voice, logger: logger)
            return .aborted(nil)
        case .ended(let ending):
            logger.warning("\(engine.name) helper ended", metadata: ["seq": "\(seq)", "how": "\(ending)"])
            if let breach = helper.sandboxBreach {
                logger.error("\(engine.name) broke its sandbox", metadata: ["seq": "\(seq)", "breach": "\(breach)"])
                return .failed(HelperSession.sandboxMessage(breach, engine: engine.name), helper)
            }
            engine.giveBack(helper, voice: request.voice, logger: logger)
            return nil
        }
    }

    /// Reads the helper's words, marks and audio into `run` until the utterance is done, calling
    /// `whenSampled` once its first samples have come, before they are fed. When the run stops early it reports its end
    /// at once, asks the helper to stop, and reads on to the helper's `done` (what comes until
    /// then is dropped), so the next post finds it idle.
    private func play(
        _ run: UtteranceRun, helper: EngineHelperProcess, engine speaking: any SpeechEngine,
        recorder: inout RenderedAudioRecorder?, whenSampled: () -> Void = {}
    ) {
        let session = HelperSession(helper: helper, engine: speaking)
        if run.stop != nil {
            run.finish()
            session.skip()
            recorder = nil
            return
        }
        var sampled = false
        var recording = recorder
        let end = session.read(logger: run.job.audioPath.logger, metadata: ["seq": "\(run.job.utterance.seq)"]) {
            message in
            recording?.record(message)
            if case .samples = message, !sampled {
                sampled = true
                whenSampled()
            }
            guard run.take(message) else {
                run.finish()
                return false
            }
            return true
        }
        recorder = recording
        switch end {
        case .done(let status):
            if run.stop == nil, status != 0 {
                run.stop = .failed("\(speaking.name) could not synthesize the text (error \(status))")
            }
            if run.stop == nil { run.collectSkippedMarksAtEnd() } else { recorder = nil }
        case .stopped, .cancelled:
            recorder = nil
        case .died(let failure):
            // The helper died inside its engine (this text crashed it), or is stuck there.
            recorder = nil
            if run.stop != .aborted { run.stop = .failed(failure) }
        }
    }

    /// Stops the utterance the helper has started and reads to its end.
    private func skipUtterance(_ helper: EngineHelperProcess, engine: any SpeechEngine) {
        HelperSession(helper: helper, engine: engine).skip()
    }

    /// The helper's request for `utterance`, with parameters clamped to espeak-ng's ranges.
    /// `text` and `ssml` come from the text position map: a spelled text is SSML even when the
    /// post's was not.
    private func request(for utterance: Utterance, text: String, ssml: Bool) -> SynthesisRequest {
        Self.request(
            voice: utterance.voice, rate: utterance.rate, pitch: utterance.pitch, volume: utterance.volume,
            punctuation: utterance.punctuation, ssml: ssml, text: text)
    }

    /// The helper's request for `text` in the voice `voice` (its identifier), with parameters
    /// clamped to espeak-ng's ranges and `some` punctuation's list: the same for a post's run and a
    /// stream, so both find each other's renderings in the speech cache.
    static func request(
        voice: String, rate: Int, pitch: Int, volume: Int, punctuation: PunctuationMode, ssml: Bool, text: String
    ) -> SynthesisRequest {
        let wirePunctuation: SynthesisRequest.Punctuation
        switch punctuation {
        case .none: wirePunctuation = .none
        case .all: wirePunctuation = .all
        case .some: wirePunctuation = .some
        }
        return SynthesisRequest(
            voice: voice,
            rate: Int32(SpeechRanges.clamp(rate, to: SpeechRanges.rate)),
            pitch: Int32(SpeechRanges.clamp(pitch, to: SpeechRanges.pitch)),
            volume: Int32(SpeechRanges.clamp(volume, to: SpeechRanges.volume)),
            punctuation: wirePunctuation,
            punctuationList: somePunctuation,
            ssml: ssml,
            text: text
        )
    }
}
