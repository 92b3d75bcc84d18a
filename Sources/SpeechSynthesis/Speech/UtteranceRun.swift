// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import AnnounceProtocol
import Logging

/// One utterance in flight on the speech thread: feeds the output in small slices, turns
/// espeak's word and mark events into backend events as playback reaches them, and ends with
/// exactly one `finished`.
final class UtteranceRun {
    /// Why the run stopped early.
    enum Stop: Equatable {
        case aborted
        case failed(String)
    }

    /// A word, mark or language run waiting for playback to reach its frame.
    private struct Marker {
        enum Kind {
            case word(offset: Int, length: Int)
            case mark(String)
            /// A language run begins.
            case run(SpeechRun)
        }
        var frame: Int
        var kind: Kind
    }

    let job: QueuedUtterance
    /// Decodes the text of the language run being spoken as far as the words reported reach.
    private(set) var map: TextPositionMap
    /// What to add to a position in that run's text to get its position in the post's.
    private var positionOffset = 0
    /// The thread's owner: the abort and the pause.
    private let thread: SpeechThread
    var stop: Stop?
    private let output: any AudioOutput
    private let emit: @Sendable (SpeechBackendEvent) -> Void
    private let seq: UInt64
    /// About 5 ms: the abort flag is checked between slices, so an interruption silences the
    /// output within about 5 ms plus what the device already holds.
    private let sliceFrames: Int
    private var framesWritten = 0
    /// The frame at which espeak's own audio starts (after the earcon).
    private var speechStart = 0
    private var started = false
    /// Whether the terminal event has been emitted.
    private var finished = false
    private var markers: [Marker] = []
    private var nextMarker = 0
    private var lastPlayedWordOffset = 0
    /// espeak word events seen so far.
    private var wordEventCount = 0
    /// Where the last word queued ends: words starting before it are dropped.
    private var collectedWordsEnd = 0
    /// The SSML's marks, in text order, and how many have been queued: espeak-ng 1.51 reports no
    /// event for a mark right after a sentence's full stop (`ready. <mark/>It`), which is where
    /// Orca's say-all puts one per sentence. A mark it skipped is reported where playback passes
    /// it: with the first word after it in the text, or the next mark it reports, or at the end of
    /// the audio when the utterance is spoken to its end. So in a long text every mark comes when
    /// its place is spoken, not at the end.
    private var expectedMarks: [SSMLMarks.Mark]
    private var nextExpectedMark = 0

    /// `marks`: the SSML text's marks (`SSMLMarks.marks(in:)`), empty for plain text.
    init(job: QueuedUtterance, thread: SpeechThread, sampleRate: Int, map: TextPositionMap, marks: [SSMLMarks.Mark]) {
        self.job = job
        self.thread = thread
        self.map = map
        output = job.audioPath.output
        emit = job.audioPath.eventHandler
        seq = job.utterance.seq
        sliceFrames = max(1, sampleRate / 200)
        expectedMarks = marks
    }

    /// A language run of the post begins (the first after the earcon): the engine's event sample
    /// numbers count from here, its positions from the run's `offset` in the post's text, with the
    /// run's own text `map` and SSML `marks`.
    func beginPart(_ part: UtterancePart, map: TextPositionMap, marks: [SSMLMarks.Mark]) {
        speechStart = framesWritten
        self.map = map
        positionOffset = part.offset
        expectedMarks = marks
        nextExpectedMark = 0
        wordEventCount = 0
        collectedWordsEnd = 0
        markers.append(Marker(frame: framesWritten, kind: .run(part.run)))
        job.audioPath.logger.debug(
            "run",
            metadata: [
                "seq": "\(seq)", "language": "\(part.run.language)", "voice": "\(part.utterance.voice)",
                "engine": "\(part.engine.name)",
                "offset": "\(part.offset)",
            ]
        )
    }

    /// Writes samples to the output in slices, checking for an abort between them.
    /// False when the run stopped.
    func feed(_ samples: UnsafeBufferPointer<Int16>) -> Bool {
        var start = 0
        while start < samples.count {
            if !waitWhilePaused() {
                stop = .aborted
                return false
            }
            let end = min(samples.count, start + sliceFrames)
            let slice = UnsafeBufferPointer(rebasing: samples[start..<end])
            do {
                try output.write(slice)
            } catch {
                stop = .failed("\(error)")
                return false
            }
            framesWritten += slice.count
            if !started {
                started = true
                emit(.started(seq: seq))
            }
            deliverMarkers(upTo: output.playedFrames)
            start = end
        }
        return true
    }

    /// Waits for playout (unless stopped), then reports the outcome; does nothing the second time.
    func finish() {
        guard !finished else { return }
        finished = true
        if stop == nil { drain() }
        switch stop {
        case nil:
            deliverMarkers(upTo: .max)
            do {
                try output.end()
            } catch {
                fail("\(error)")
                return
            }
            if !started { emit(.started(seq: seq)) }
            job.audioPath.logger.debug("completed", metadata: ["seq": "\(seq)"])
            emit(.finished(seq: seq, outcome: .completed))
        case .aborted:
            output.discard()
            deliverMarkers(upTo: output.playedFrames)
            endAfterStop()
            job.audioPath.logger.debug(
                "aborted", metadata: ["seq": "\(seq)", "spokenChars": "\(lastPlayedWordOffset)"])
            emit(.finished(seq: seq, outcome: .aborted(spokenChars: lastPlayedWordOffset)))
        case .failed(let message):
            fail(message)
        }
    }

    private func fail(_ message: String) {
        output.discard()
        endAfterStop()
        job.audioPath.logger.error("speech failed", metadata: ["seq": "\(seq)", "error": "\(message)"])
        emit(.finished(seq: seq, outcome: .failed(message: message, spokenChars: lastPlayedWordOffset)))
    }

    private func endAfterStop() {
        do {
            try output.end()
        } catch {
            job.audioPath.logger.error("audio output failed", metadata: ["seq": "\(seq)", "error": "\(error)"])
        }
    }

    /// Waits, in short abort-aware steps, until the output has played every frame.
    private func drain() {
        while true {
            if !waitWhilePaused() {
                stop = .aborted
                return
            }
            do {
                let done = try output.waitForPlayout(timeout: .milliseconds(10))
                deliverMarkers(upTo: output.playedFrames)
                if done { return }
            } catch {
                stop = .failed("\(error)")
                return
            }
        }
    }

    /// False when the run is aborted. While the speech is paused (`SpeechThread.pause`), pauses
    /// the output and waits, then resumes it; false when the run was aborted during the pause
    /// (`finish` then discards the output's held audio).
    private func waitWhilePaused() -> Bool {
        switch thread.playback {
        case .playing: return true
        case .aborted: return false
        case .paused: output.pause()
        }
        guard thread.waitWhilePaused() else { return false }
        output.resume()
        return true
    }

    /// Queues an espeak word event (its 1-based character position and length in the
    /// synthesized text) at the frame where its audio starts.
    func collectWord(sample: Int, textPosition: Int, length: Int) {
        let ordinal = wordEventCount
        wordEventCount += 1
        guard let range = map.wordRange(textPosition: textPosition, length: length, ordinal: ordinal) else { return }
        // espeak reports the second and later words of one it expands ("42" is "forty two",
        // "déjà vu" a dictionary phrase) one character into the first: not a word of the text.
        guard range.offset >= collectedWordsEnd else { return }
        collectedWordsEnd = range.offset + range.length
        // Marks before this word that espeak-ng did not report are reached here.
        while nextExpectedMark < expectedMarks.count, expectedMarks[nextExpectedMark].offset < range.offset {
            markers.append(Marker(frame: speechStart + sample, kind: .mark(expectedMarks[nextExpectedMark].name)))
            nextExpectedMark += 1
        }
        markers.append(
            Marker(
                frame: speechStart + sample, kind: .word(offset: positionOffset + range.offset, length: range.length)))
    }

    /// Queues an SSML mark at the frame where playback reaches it, after the marks before it in
    /// the text that espeak-ng skipped.
    func collectMark(sample: Int, name reported: String) {
        let name = SSMLMarks.expectedName(reported, among: expectedMarks[nextExpectedMark...])
        if let index = expectedMarks[nextExpectedMark...].firstIndex(where: { $0.name == name }) {
            for skipped in expectedMarks[nextExpectedMark..<index] {
                markers.append(Marker(frame: speechStart + sample, kind: .mark(skipped.name)))
            }
            nextExpectedMark = index + 1
        } else if expectedMarks[max(0, nextExpectedMark - 16)..<nextExpectedMark].contains(where: { $0.name == name }) {
            // Already reported with the word after it (espeak-ng reported it late).
            return
        }
        markers.append(Marker(frame: speechStart + sample, kind: .mark(name)))
    }

    /// The synthesis ended complete: queues the marks espeak-ng skipped after its last reported
    /// one at the end of the audio, so every mark of a text spoken to its end is reported.
    func collectSkippedMarksAtEnd() {
        for skipped in expectedMarks[nextExpectedMark...] {
            markers.append(Marker(frame: framesWritten, kind: .mark(skipped.name)))
        }
        nextExpectedMark = expectedMarks.count
    }

    /// Reports, in order, the queued events whose frame playback has reached.
    private func deliverMarkers(upTo playedFrames: Int) {
        while nextMarker < markers.count, markers[nextMarker].frame <= playedFrames {
            switch markers[nextMarker].kind {
            case .word(let offset, let length):
                lastPlayedWordOffset = offset
                emit(.word(seq: seq, offset: offset, length: length))
            case .mark(let name):
                emit(.mark(seq: seq, name: name))
            case .run(let run):
                // A run is reported once the post's audio has begun (`started`); a post with no
                // audio at all has none.
                if started { emit(.run(seq: seq, run)) }
            }
            nextMarker += 1
        }
        if nextMarker > 256 {
            markers.removeFirst(nextMarker)
            nextMarker = 0
        }
    }
}

/// The `<mark name="…"/>` elements of an SSML text, in order.
enum SSMLMarks {
    /// One mark: its name and where its tag starts, in Unicode scalars of the text.
    struct Mark: Equatable {
        var name: String
        var offset: Int
    }

    /// The name of the mark espeak-ng reported as `reported`: espeak-ng 1.51 reports a name in
    /// single quotes (`<mark name='s1'/>`) with the closing quote and a space (`s1' `), so a
    /// name that is none of `expected` is taken without them when that is one of them.
    static func expectedName(_ reported: String, among expected: ArraySlice<Mark>) -> String {
        var trimmed = Substring(reported)
        while let last = trimmed.last, last == " " || last == "'" || last == "\"" { trimmed = trimmed.dropLast() }
        guard trimmed.count != reported.count, !expected.contains(where: { $0.name == reported }),
            expected.contains(where: { $0.name == trimmed })
        else { return reported }
        return String(trimmed)
    }

    /// The names of the marks of `ssml`, in order.
    static func names(in ssml: String) -> [String] { marks(in: ssml).map(\.name) }

    /// The marks of `ssml`, in order, in one pass over its UTF-8 bytes (a mark's offset counts
    /// the scalars before it: every byte that does not continue a scalar starts one). The pass
    /// runs before the first sample, so it finds each `<` with `memchr` and counts scalars 8 bytes
    /// at a time rather than decoding scalars or looping over bytes.
    static func marks(in ssml: String) -> [Mark] {
        var text = ssml
        return text.withUTF8 { utf8 in
            let bytes = UnsafeRawBufferPointer(utf8)
            var marks: [Mark] = []
            // The scalars before byte `counted`.
            var scalarsBefore = 0
            var counted = 0
            var index = 0
            while let open = ByteScan.firstIndex(of: UInt8(ascii: "<"), in: bytes, from: index) {
                guard open + 5 <= bytes.count else { break }
                // `mark` after the `<`, as one 4-byte load (little-endian, as on every platform
                // announced builds for).
                guard bytes.loadUnaligned(fromByteOffset: open + 1, as: UInt32.self) == markWord else {
                    index = open + 1
                    continue
                }
                index = open + 5
                guard let close = ByteScan.firstIndex(of: UInt8(ascii: ">"), in: bytes, from: index) else { break }
                let tag = UnsafeBufferPointer(rebasing: utf8[index..<close])
                index = close
                guard let name = name(inTag: tag) else { continue }
                scalarsBefore += ByteScan.scalarStarts(in: UnsafeRawBufferPointer(rebasing: bytes[counted..<open]))
                counted = open
                marks.append(Mark(name: name, offset: scalarsBefore))
            }
            return marks
        }
    }

    /// `mark` as a little-endian 32-bit word.
    private static let markWord: UInt32 = 0x6B72_616D

    /// The quoted value of `name=` in a mark tag's bytes (after `<mark`, before `>`), if any.
    private static func name(inTag tag: UnsafeBufferPointer<UInt8>) -> String? {
        // The first `name=` with a byte after it: `name` as one 4-byte load, then `=`.
        let raw = UnsafeRawBufferPointer(tag)
        guard
            let found = (0..<max(0, tag.count - 5)).first(where: {
                raw.loadUnaligned(fromByteOffset: $0, as: UInt32.self) == 0x656D_616E
                    && tag[$0 + 4] == UInt8(ascii: "=")
            })
        else { return nil }
        let quoteIndex = found + 5
        let quote = tag[quoteIndex]
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
        guard let end = tag[(quoteIndex + 1)...].firstIndex(of: quote) else { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: tag[(quoteIndex + 1)..<end]), as: UTF8.self)
    }
}
