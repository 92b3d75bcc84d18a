// SPDX-License-Identifier: GPL-3.0-or-later
import CEspeakNG
import Glibc

/// espeak-ng in this process, as the daemon uses it: the time from `espeak_Synth` to the first
/// callback with samples. This is the floor no daemon figure can beat.
enum EspeakFloor {
    nonisolated(unsafe) static var firstSamples: UInt64 = 0
    nonisolated(unsafe) static var totalSamples = 0

    static let callback:
        @convention(c) (UnsafeMutablePointer<Int16>?, Int32, UnsafeMutablePointer<espeak_EVENT>?) -> Int32 = {
            _, count, _ in
            if count > 0 && EspeakFloor.firstSamples == 0 { EspeakFloor.firstSamples = now() }
            EspeakFloor.totalSamples += Int(count)
            return 0
        }

    /// Measures `samples` syntheses of `text`; nil when espeak-ng cannot start.
    static func measure(text: String, samples: Int) -> Figure? {
        guard espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 60, nil, espeakINITIALIZE_DONT_EXIT) > 0 else { return nil }
        espeak_SetSynthCallback(callback)
        _ = espeak_SetVoiceByName("en-us")
        var figure = Figure(name: "7. espeak-ng in-process: call → first samples")
        for _ in 0..<samples {
            firstSamples = 0
            let start = now()
            text.withCString { pointer in
                _ = espeak_Synth(pointer, strlen(pointer) + 1, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8), nil, nil)
            }
            figure.add(nanoseconds: firstSamples - start)
        }
        return figure
    }
}
