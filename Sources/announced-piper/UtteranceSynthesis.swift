// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import EngineWire
import HelperRuntime
import PiperRendering

/// Speaks one utterance with a loaded voice, streaming: each sentence (or, in a long sentence,
/// each group of clauses) is synthesized and sent as soon as it is ready, so the first audio of a
/// chapter comes as soon as that of a short post. Marks are sent at the first sample after them,
/// words at an estimate of their first sample (the clause's audio shared out by letters). The
/// first chunk's quiet onset is not sent (QuietOnset): positions count in the audio as sent.
struct UtteranceSynthesis {
    /// The helper's output rate, whatever the voice's: what `ready` announces.
    static let outputRate = HelperAudio.sampleRate
    /// The pause between sentences (Piper's own default), in seconds.
    static let sentencePause = HelperAudio.sentencePause
    /// Phoneme scalars a chunk of several clauses may have: few for the first chunk (the time to
    /// the first sample; "Download complete." has 20), more after it, when the engine runs ahead of
    /// playback and longer chunks keep a sentence's intonation whole. One clause longer than the
    /// limit is still one chunk.
    static let firstChunkLimit = 60
    static let chunkLimit = 300
    /// Samples per `samples` frame: 60 ms, as announced-espeak's buffers, so a frame fits the
    /// daemon's 4 KiB pipe.
    static let frameSamples = 1_323

    let voice: LoadedVoice
    /// Where the words, marks and samples go, and whether the daemon asked to stop.
    let runtime: HelperRuntime
    /// 1 is the voice's own speed; 2 twice as fast.
    let speed: Float
    /// Linear gain on the samples.
    let gain: Float

    /// Samples sent so far.
    private var samplesSent = 0
    private var chunksSent = 0
    private let resampler: Resampler

    init(voice: LoadedVoice, runtime: HelperRuntime, rate: Int32, volume: Int32) {
        self.voice = voice
        self.runtime = runtime
        // espeak-ng's words per minute as a speed factor over the voice's own (its normal rate):
        // the voice's length scale divided by it, over the daemon's whole range.
        speed = Float(SpeechRanges.clamp(Int(rate), to: SpeechRanges.rate)) / Float(SpeechRanges.normalRate)
        gain = Float(min(max(volume, 0), 200)) / 100
        resampler = Resampler(from: voice.sampleRate, to: Self.outputRate)
    }

    /// Speaks `text`; false when the daemon is gone (the pipe closed) or the engine failed.
    mutating func speak(_ text: SpeechText) -> Bool {
        for segment in text.segments {
            if runtime.shouldStop() { return true }
            if pausePending, segment.mark != nil || segment.pause > 0 {
                // The pause after a sentence comes before a mark, so the mark is where the text after it starts.
                pausePending = false
                guard sendSilence(seconds: Self.sentencePause) else { return false }
            }
            if let mark = segment.mark {
                guard runtime.send(.mark(sample: UInt32(clamping: samplesSent), name: mark)) else { return false }
            }
            if segment.pause > 0 {
                guard sendSilence(seconds: segment.pause) else { return false }
            }
            let reader = ClauseReader(segment.text)
            var pending: [PhonemizedClause] = []
            var phonemeCount = 0
            while let clause = reader.next() {
                // A chunk is cut at a clause before it grows past the limit (the first one sooner).
                let limit = chunksSent == 0 ? Self.firstChunkLimit : Self.chunkLimit
                if !pending.isEmpty, phonemeCount + clause.phonemes.count > limit {
                    guard send(pending, of: segment) else { return false }
                    pending = []
                    phonemeCount = 0
                    if runtime.shouldStop() { return true }
                }
                pending.append(clause)
                phonemeCount += clause.phonemes.count
                if clause.endsSentence {
                    guard send(pending, of: segment) else { return false }
                    pending = []
                    phonemeCount = 0
                    if runtime.shouldStop() { return true }
                }
            }
            if !pending.isEmpty, !send(pending, of: segment) { return false }
        }
        return true
    }

    /// Synthesizes `clauses` and sends their words and samples.
    private mutating func send(_ clauses: [PhonemizedClause], of segment: SpeechText.Segment) -> Bool {
        if runtime.shouldStop() { return true }
        let phonemes = clauses.flatMap(\.phonemes).map { Int32(bitPattern: $0.value) }
        let runtime = runtime
        guard let audio = voice.synthesize(phonemes: phonemes, speed: speed, keepGoing: { !runtime.shouldStop() })
        else {
            return runtime.shouldStop()
        }
        var samples = resampler.resample(audio)
        if samplesSent == 0 {
            // The utterance's first audio: its quiet onset would only delay what is heard.
            samples.removeFirst(QuietOnset.start(of: samples))
        }
        var lead = 0
        if pausePending {
            lead = Int(Self.sentencePause * Double(Self.outputRate))
            samples = [Float](repeating: 0, count: lead) + samples
        }
        // Sent before the next chunk or mark, never after the utterance's last sentence.
        pausePending = clauses.last?.endsSentence ?? false
        guard sendWords(in: clauses, of: segment, from: samplesSent + lead, sampleCount: samples.count - lead) else {
            return false
        }
        var start = 0
        var pcm = [Int16](repeating: 0, count: Self.frameSamples)
        while start < samples.count {
            let count = min(Self.frameSamples, samples.count - start)
            for index in 0..<count {
                pcm[index] = HelperAudio.pcm(samples[start + index], gain: gain)
            }
            let sent = pcm.withUnsafeBufferPointer {
                runtime.send(samples: UnsafeBufferPointer(rebasing: $0[..<count]))
            }
            guard sent else { return false }
            start += count
        }
        samplesSent += samples.count
        chunksSent += 1
        return true
    }

    /// Whether the last chunk ended a sentence, so a pause is owed before what comes next.
    private var pausePending = false

    /// A pause: zeros, in frames like the audio's.
    private mutating func sendSilence(seconds: Double) -> Bool {
        var left = Int(seconds * Double(Self.outputRate))
        let zeros = [Int16](repeating: 0, count: Self.frameSamples)
        while left > 0 {
            let count = min(left, Self.frameSamples)
            let sent = zeros.withUnsafeBufferPointer {
                runtime.send(samples: UnsafeBufferPointer(rebasing: $0[..<count]))
            }
            guard sent else { return false }
            samplesSent += count
            left -= count
        }
        return true
    }

    /// One `word` per word of the clauses, at its share of their audio (`sampleCount` samples from
    /// `firstSample`) by letters.
    private func sendWords(
        in clauses: [PhonemizedClause], of segment: SpeechText.Segment, from firstSample: Int, sampleCount: Int
    ) -> Bool {
        guard let first = clauses.first, let last = clauses.last else { return true }
        let text = segment.text
        var words: [(start: Int, end: Int)] = []
        var index = first.start
        while index < last.end {
            while index < last.end, !Self.isWordScalar(text[index]) { index += 1 }
            let start = index
            var end = index
            while index < last.end, !text[index].properties.isWhitespace {
                if Self.isWordScalar(text[index]) { end = index + 1 }
                index += 1
            }
            if end > start { words.append((start, end)) }
        }
        let letters = max(1, words.reduce(0) { $0 + $1.end - $1.start })
        var lettersBefore = 0
        for word in words {
            let sample = firstSample + sampleCount * lettersBefore / letters
            lettersBefore += word.end - word.start
            let position = segment.positions[word.start]
            let length = segment.positions[word.end - 1] + 1 - position
            let word = EngineMessage.word(
                sample: UInt32(clamping: sample), textPosition: Int32(clamping: position + 1),
                length: Int32(clamping: length)
            )
            guard runtime.send(word) else { return false }
        }
        return true
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }
}

/// Linear interpolation from a voice's rate to the helper's (most Piper voices are 22,050 Hz
/// already; `low` ones are 16,000).
struct Resampler {
    let from: Int
    let to: Int

    func resample(_ samples: [Float]) -> [Float] {
        guard from != to, !samples.isEmpty else { return samples }
        let count = samples.count * to / from
        let step = Double(from) / Double(to)
        return (0..<count).map { index in
            let position = Double(index) * step
            let lower = Int(position)
            let upper = min(lower + 1, samples.count - 1)
            let fraction = Float(position - Double(lower))
            return samples[lower] + (samples[upper] - samples[lower]) * fraction
        }
    }
}
