// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceProtocol

/// How SSIP's -100...100 voice parameters map onto announced's ranges. 0 is the daemon's default;
/// -100 and 100 are the ends of announced's range (for the rate, 100 is `ssip_max_rate`), linear
/// on each side of the default (as speech-dispatcher's espeak-ng module maps them around its
/// normal rate).
public enum SSIPVoiceMapping {
    /// RATE → words per minute: -100 → the slowest rate, 0 → `defaultRate`, 100 → `maxRate`
    /// (`ssip_max_rate`, as speech-dispatcher's `EspeakMaxRate`). The top is clamped to the
    /// engine's range, and is never below the default, so the scale never goes down.
    public static func rate(_ value: Int, defaultRate: Int, maxRate: Int) -> Int {
        let middle = SpeechRanges.clamp(defaultRate, to: SpeechRanges.rate)
        let high = SpeechRanges.clamp(max(maxRate, middle), to: SpeechRanges.rate)
        return scale(value, low: SpeechRanges.rate.lowerBound, middle: middle, high: high)
    }

    /// PITCH → 0...100: -100 → 0, 0 → `defaultPitch`, 100 → 100.
    public static func pitch(_ value: Int, defaultPitch: Int) -> Int {
        scale(value, low: SpeechRanges.pitch.lowerBound, middle: defaultPitch, high: SpeechRanges.pitch.upperBound)
    }

    /// VOLUME → 0...200: -100 → 0, 0 → `defaultVolume`, 100 → 200. With the default volume 100
    /// this is speech-dispatcher's own mapping (its `DefaultVolume 100` is espeak-ng's 200).
    public static func volume(_ value: Int, defaultVolume: Int) -> Int {
        scale(value, low: SpeechRanges.volume.lowerBound, middle: defaultVolume, high: SpeechRanges.volume.upperBound)
    }

    static func scale(_ value: Int, low: Int, middle: Int, high: Int) -> Int {
        let clamped = min(max(value, -100), 100)
        let span = clamped < 0 ? middle - low : high - middle
        let scaled = span * clamped
        // Rounded to the nearest step, halves away from zero.
        return middle + (scaled + (scaled < 0 ? -50 : 50)) / 100
    }

    /// `VOICE_TYPE` → an espeak-ng variant of the language's voice (`voices/!v`). MALE1 is the
    /// voice as it is; the others are espeak-ng's own male and female variants; the child voices
    /// are approximations (espeak-ng has no child variants): its highest-pitched female variants.
    public static func espeakVariant(_ type: SSIPVoiceType) -> String? {
        switch type {
        case .male1: return nil
        case .male2: return "m2"
        case .male3: return "m3"
        case .female1: return "f1"
        case .female2: return "f2"
        case .female3: return "f3"
        case .childMale: return "f5"
        case .childFemale: return "anika"
        }
    }

    /// SSIP's four punctuation levels onto announced's three: `most` speaks like `some`.
    public static func punctuation(_ mode: SSIPPunctuation) -> Punctuation {
        switch mode {
        case .all: return .all
        case .most, .some: return .some
        case .none: return .none
        }
    }
}
