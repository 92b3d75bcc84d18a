// SPDX-License-Identifier: GPL-3.0-or-later

/// Where an utterance's audio starts: a Piper voice begins each rendering with tens of
/// milliseconds that cannot be heard, and on the first chunk of a post that quiet is only a delay before the
/// listener hears anything. So the first chunk's audio starts ``leadIn`` before its first sample
/// above ``threshold``; what comes before is not sent. Later chunks keep their leading quiet: it
/// is part of the pause between sentences.
///
/// The cut is made before the volume is applied, so it is the same at every volume, and before any
/// word or mark of the chunk is placed, so their sample positions count in the audio as sent.
public enum QuietOnset {
    /// A sample is audible above this magnitude, in 16-bit steps at volume 100 (|64| of 32,767,
    /// about −54 dBFS): what the benchmarks count as audible at the sound server.
    public static let threshold = 64
    /// Samples kept before the first audible one, at the helper's output rate: 5 ms, so a soft
    /// attack that starts just under the threshold is not clipped.
    public static let leadIn = HelperAudio.sampleRate / 200

    /// The index the audio starts at: ``leadIn`` before the first sample above ``threshold``
    /// (samples in [-1, 1], scaled as the helper converts them at volume 100); 0 when that sample
    /// comes sooner or no sample is above it (nothing is cut from a quiet chunk).
    public static func start(of samples: [Float]) -> Int {
        let limit = Float(threshold)
        guard let first = samples.firstIndex(where: { abs(($0 * 32_767).rounded()) > limit }) else { return 0 }
        return max(0, first - leadIn)
    }
}
