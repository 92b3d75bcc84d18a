// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import Glibc
import PiperRendering
import TestSupport
import Testing

/// The phonemes of the test texts' sentences, as the helper's phonemizer gives them: espeak-ng
/// 1.51's IPA (voice en-us) with Piper's punctuation rule (the clause's closing punctuation put
/// back). Got once, on 25 Nov 2026, with `espeak-ng -q --ipa -v en-us "Download complete. Your
/// files are ready."` (one line per sentence) and checked against espeak_TextToPhonemes(
/// espeakCHARS_UTF8, espeakPHONEMES_IPA) clause by clause, as Phonemizer.swift calls it (same
/// scalars); each sentence ends in `.`, so `.` is appended. Literal here, so a daemon that
/// phonemized differently renders something else than the engine below.
private enum Phonemes {
    static let downloadComplete = "dˈaʊnloʊd kəmplˈiːt."
    static let yourFilesAreReady = "jʊɹ fˈaɪlz ɑːɹ ɹˈɛdi."
}

/// Issue 25, item 6: the audio where the user meets it (the daemon's WAV output) is, sample for
/// sample, sherpa-onnx's own rendering of the same phonemes at the same settings, changed only
/// as documented: converted to 16 bits (HelperAudio.pcm), the first chunk's quiet onset cut
/// (QuietOnset), and the pause between sentences (HelperAudio.sentencePause) put between chunks.
/// So the daemon cannot drop, repeat, resample or re-order a chunk, or phonemize differently,
/// unnoticed.
@Suite(
    "Daemon: a Piper post's audio is the engine's own rendering of its phonemes", .onBlockingThreads,
    .enabled(
        if: FetchedPiper.isFetched,
        "the Piper engine or its test voice is not fetched: run scripts/fetch-piper-engine.sh")
)
struct PiperOwnRenderingTests {
    /// en_US-joe-medium loaded in this process, as the daemon's helper loads it under
    /// `ANNOUNCED_PIPER_NOISE=0` with `piper_threads` 2 (the default; the daemon takes at most the
    /// machine's cores, as here): the fetched engine, noise scale LoadedVoice.noNoise, the voice's
    /// length scale.
    /// The helper's ONNX Runtime threads under `ANNOUNCED_PIPER_THREADS=2`.
    private static let threads = Int32(min(2, max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))))

    private func loadJoe() throws -> LoadedVoice {
        let engine = try SherpaOnnxLibrary.load(from: [FetchedPiper.libraryDirectory])
        let voice = try LoadedVoice(
            path: FetchedPiper.voiceDirectory + "/en_US-joe-medium.onnx", engine: engine, threads: Self.threads,
            noiseless: true)
        // The helper's rate: its audio is the engine's, not resampled.
        try #require(voice.sampleRate == HelperAudio.sampleRate)
        // The helper warms a loaded voice up with one rendering before its first post; so does the test.
        _ = voice.synthesize(phonemes: codepoints("həlˈoʊ."), speed: 1) { true }
        return voice
    }

    private func codepoints(_ ipa: String) -> [Int32] {
        ipa.unicodeScalars.map { Int32(bitPattern: $0.value) }
    }

    /// What the helper should send for a post whose chunks are `sentences` (each a sentence's
    /// phonemes) at rate 175 and volume 100 (speed 1, gain 1): each chunk rendered by the engine
    /// directly, the first without its quiet onset, a sentence pause of zeros between chunks.
    private func expectedPost(_ sentences: [String], voice: LoadedVoice) throws -> [Int16] {
        var post: [Int16] = []
        for (index, sentence) in sentences.enumerated() {
            var rendering = try #require(voice.synthesize(phonemes: codepoints(sentence), speed: 1) { true })
            if index == 0 {
                rendering.removeFirst(QuietOnset.start(of: rendering))
            } else {
                post += [Int16](repeating: 0, count: Int(HelperAudio.sentencePause * Double(HelperAudio.sampleRate)))
            }
            post += rendering.map { HelperAudio.pcm($0, gain: 1) }
        }
        return post
    }

    /// `text` spoken in en_us-joe-medium through the real daemon (WAV output, `ANNOUNCED_PIPER_NOISE=0`): its recording.
    private func recorded(_ text: String) throws -> [Int16] {
        let daemon = try piperDaemon(["ANNOUNCED_PIPER_THREADS": "2"])
        let client = try daemon.connect()
        client.send(announce(1, text, #","voice":"en_us-joe-medium""#))
        let finished = try #require(client.waitForTerminal(id: 1, timeout: 90))
        #expect(finished["success"] == .bool(true), "\(finished.text)")
        let samples = try daemon.wavSamples(seq: try #require(finished["seq"]?.intValue))
        #expect(daemon.stop() == 0)
        return samples
    }

    private func expectSame(_ recording: [Int16], as expected: [Int16], _ name: String) {
        let difference = largestDifference(recording, expected)
        let firstApart = zip(recording, expected).enumerated().first {
            abs(Int($0.element.0) - Int($0.element.1)) > renderingTolerance
        }?.offset
        print(
            "Piper, \(name): daemon \(recording.count) samples, engine \(expected.count); largest difference \(difference), first beyond \(renderingTolerance) at \(firstApart.map(String.init) ?? "none"); peak \(peak(recording))"
        )
        #expect(recording.count == expected.count, "\(name): nothing dropped, repeated, inserted or resampled")
        #expect(
            difference <= renderingTolerance,
            "\(name): sample for sample the engine's rendering (first apart at \(firstApart ?? -1))")
        #expect(peak(expected) > 1_000, "\(name): the engine's rendering is heard, not silence")
    }

    @Test(
        "one sentence (\"Download complete.\"): the daemon's recording is sherpa-onnx's rendering of its phonemes, in 16 bits, from 5 ms before its first audible sample, within a few steps a sample"
    )
    func oneSentence() throws {
        let voice = try loadJoe()
        let expected = try expectedPost([Phonemes.downloadComplete], voice: voice)
        expectSame(try recorded("Download complete."), as: expected, "one sentence")
    }

    @Test(
        "two sentences, two chunks: the first without its quiet onset, the sentence pause, the second whole, each the engine's rendering"
    )
    func twoSentences() throws {
        let voice = try loadJoe()
        let expected = try expectedPost([Phonemes.downloadComplete, Phonemes.yourFilesAreReady], voice: voice)
        expectSame(try recorded("Download complete. Your files are ready."), as: expected, "two sentences")
    }
}
