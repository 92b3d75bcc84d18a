// SPDX-License-Identifier: GPL-3.0-or-later

/// The audio announced-piper sends the daemon: 16-bit mono samples at one rate, whatever the voice's.
/// Here rather than in the helper so that a test can turn the engine's own rendering into what
/// the daemon should have received, by the same rule.
public enum HelperAudio {
    /// The helper's output rate: what `ready` announces.
    public static let sampleRate = 22_050
    /// The pause between sentences (Piper's own default), in seconds: zeros the helper sends
    /// before the next sentence's audio.
    public static let sentencePause = 0.2

    /// One engine sample (in [-1, 1]) at linear `gain` (1 is volume 100) as a 16-bit sample:
    /// scaled to 32,767, rounded, clipped.
    @inlinable
    public static func pcm(_ sample: Float, gain: Float) -> Int16 {
        Int16(max(-32_768, min(32_767, (sample * gain * 32_767).rounded())))
    }
}
