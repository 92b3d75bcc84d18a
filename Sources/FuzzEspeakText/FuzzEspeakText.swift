// SPDX-License-Identifier: GPL-3.0-or-later
import CEspeakNG
import Glibc

/// espeak-ng, set up once as the daemon sets it up (synchronous mode, 60 ms buffers, no exit on
/// missing data); the callback discards the audio.
let espeakReady: Bool = {
    guard espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 60, nil, espeakINITIALIZE_DONT_EXIT) > 0 else { return false }
    espeak_SetSynthCallback { _, _, _ in 0 }
    return espeak_SetVoiceByName("en-us") == EE_OK
}()

/// libFuzzer's entry point: the first byte picks plain text or SSML, punctuation and spelling
/// the way a post's options would; the rest is the text, synthesized by the real espeak-ng.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEspeakText(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard espeakReady, let data, size > 1 else { return 0 }
    let mode = data[0]
    var text = Array(UnsafeBufferPointer(start: data + 1, count: min(size - 1, 8192 * 4)))
    text.append(0)
    let punctuation = [espeakPUNCT_NONE, espeakPUNCT_ALL, espeakPUNCT_SOME][Int(mode & 3) % 3]
    espeak_SetParameter(espeakPUNCTUATION, Int32(punctuation.rawValue), 0)
    var flags = UInt32(espeakCHARS_UTF8)
    if mode & 4 != 0 { flags |= UInt32(espeakSSML) }
    text.withUnsafeBufferPointer { buffer in
        _ = espeak_Synth(buffer.baseAddress, buffer.count, 0, POS_CHARACTER, 0, flags, nil, nil)
    }
    return 0
}
