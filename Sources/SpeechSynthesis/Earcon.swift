import Glibc

/// The screen-change earcon: two short rising tones (660 Hz, then 880 Hz), 55 ms each with a
/// 10 ms gap and 5 ms fades, at about a quarter of full scale. 120 ms in all.
enum Earcon {
    /// The earcon's samples at `sampleRate`.
    static func samples(sampleRate: Int) -> [Int16] {
        let rate = Double(sampleRate)
        let amplitude = 0.25 * Double(Int16.max)
        func tone(_ frequency: Double, milliseconds: Double) -> [Int16] {
            let count = Int(rate * milliseconds / 1000)
            let fade = max(1, Int(rate * 0.005))
            return (0..<count).map { index in
                let ramp = min(1, Double(min(index, count - 1 - index)) / Double(fade))
                let value = amplitude * ramp * sin(2 * Double.pi * frequency * Double(index) / rate)
                return Int16(value.rounded())
            }
        }
        let gap = [Int16](repeating: 0, count: Int(rate * 0.010))
        return tone(660, milliseconds: 55) + gap + tone(880, milliseconds: 55)
    }
}
