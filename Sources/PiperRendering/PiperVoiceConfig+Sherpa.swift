// SPDX-License-Identifier: GPL-3.0-or-later
import PiperVoices

/// What sherpa-onnx's VITS loader needs of a Piper voice that the `.onnx` itself lacks, made from
/// its `.onnx.json` (read and checked by PiperVoices' ``PiperVoiceConfig``, as the daemon reads
/// it): the token table and the model's metadata, which ``PreparedModel`` hands to the engine.
extension PiperVoiceConfig {
    /// sherpa-onnx's `tokens.txt`: `<symbol> <id>` a line (the space symbol's line is `  3`, which
    /// its reader takes as the space).
    var tokensText: String {
        var text = ""
        for phoneme in phonemeIDs { text += "\(phoneme.symbol) \(phoneme.id)\n" }
        return text
    }

    /// The metadata sherpa-onnx's VITS loader reads from a Piper model (what its own conversion
    /// script adds to the `.onnx`).
    var modelMetadata: [(key: String, value: String)] {
        [
            ("model_type", "vits"), ("comment", "piper"), ("language", languageName ?? espeakVoice),
            ("voice", espeakVoice),
            ("has_espeak", "1"), ("n_speakers", String(speakerCount)), ("sample_rate", String(sampleRate)),
        ]
    }
}
