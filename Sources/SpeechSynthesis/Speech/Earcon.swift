// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// The earcons. Screen change: two short rising tones (660 Hz, then 880 Hz), 55 ms each with a
/// 10 ms gap and 5 ms fades, at about a quarter of full scale, 120 ms in all. Boundary (navigation
/// reached the first or last stop): one 70 ms tone at 220 Hz, VoiceOver's "bonk".
enum Earcon {
    /// The boundary earcon's samples at `sampleRate`.
    static func boundarySamples(sampleRate: Int) -> [Int16] {
        tone(220, milliseconds: 70, sampleRate: sampleRate)
    }

    /// A sine tone with 5 ms fades at about a quarter of full scale.
    static func tone(_ frequency: Double, milliseconds: Double, sampleRate: Int) -> [Int16] {
        let rate = Double(sampleRate)
        let amplitude = 0.25 * Double(Int16.max)
        let count = Int(rate * milliseconds / 1000)
        let fade = max(1, Int(rate * 0.005))
        return (0..<count).map { index in
            let ramp = min(1, Double(min(index, count - 1 - index)) / Double(fade))
            let value = amplitude * ramp * sin(2 * Double.pi * frequency * Double(index) / rate)
            return Int16(value.rounded())
        }
    }

    /// The screen-change earcon's samples at `sampleRate`.
    static func samples(sampleRate: Int) -> [Int16] {
        let gap = [Int16](repeating: 0, count: Int(Double(sampleRate) * 0.010))
        return tone(660, milliseconds: 55, sampleRate: sampleRate) + gap
            + tone(880, milliseconds: 55, sampleRate: sampleRate)
    }
}
