// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import Glibc

/// A Piper voice's `.onnx.json`: what sherpa-onnx's VITS loader needs that the `.onnx` itself
/// lacks (its metadata and token table), and how to phonemize for it.
struct PiperVoiceFile {
    /// The espeak-ng voice whose IPA the model was trained on, e.g. `en-us`.
    let espeakVoice: String
    /// The model's output rate.
    let sampleRate: Int
    /// Speakers in the model (1 for most voices).
    let speakerCount: Int
    /// The language's English name, for the metadata (`English`).
    let language: String
    /// VITS's scales from the voice's `inference` section.
    let noiseScale: Float
    let lengthScale: Float
    let noiseWidth: Float
    /// Each phoneme (a Unicode scalar, as a string) and its id in the model.
    let phonemeIDs: [(symbol: String, id: Int64)]

    /// A voice file that cannot be used: why, in words for the log.
    struct Problem: Error {
        let message: String
    }

    /// Reads and checks `path` (the `.onnx.json`).
    init(path: String) throws(Problem) {
        let bytes = try Self.read(path)
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            throw Problem(message: "\(path) is not JSON: \(error)")
        }
        guard let root = json.objectValue else { throw Problem(message: "\(path) is not a JSON object") }
        if let type = root["phoneme_type"]?.stringValue, type != "espeak" {
            throw Problem(message: "\(path) is a voice for \(type) phonemes; only espeak phonemes are supported")
        }
        guard let voice = root["espeak"]?.objectValue?["voice"]?.stringValue, !voice.isEmpty else {
            throw Problem(message: "\(path) names no espeak voice (espeak.voice)")
        }
        guard let rate = root["audio"]?.objectValue?["sample_rate"]?.integerValue, (8_000...96_000).contains(rate) else {
            throw Problem(message: "\(path) has no usable audio.sample_rate")
        }
        guard let map = root["phoneme_id_map"]?.objectValue, !map.members.isEmpty else {
            throw Problem(message: "\(path) has no phoneme_id_map")
        }
        var ids: [(symbol: String, id: Int64)] = []
        for (symbol, value) in map.members {
            guard let id = value.arrayValue?.first?.integerValue, !symbol.contains("\n") else {
                throw Problem(message: "\(path): the phoneme_id_map entry for \"\(symbol)\" is not a list of ids")
            }
            ids.append((symbol, id))
        }
        let inference = root["inference"]?.objectValue
        espeakVoice = voice
        sampleRate = Int(rate)
        speakerCount = max(1, Int(root["num_speakers"]?.integerValue ?? 1))
        language = root["language"]?.objectValue?["name_english"]?.stringValue ?? voice
        noiseScale = Float(inference?["noise_scale"]?.doubleValue ?? 0.667)
        lengthScale = Float(inference?["length_scale"]?.doubleValue ?? 1)
        noiseWidth = Float(inference?["noise_w"]?.doubleValue ?? 0.8)
        phonemeIDs = ids
    }

    /// sherpa-onnx's `tokens.txt`: `<symbol> <id>` a line (the space symbol's line is `  3`, which
    /// its reader takes as the space).
    var tokensText: String {
        var text = ""
        for (symbol, id) in phonemeIDs { text += "\(symbol) \(id)\n" }
        return text
    }

    /// The metadata sherpa-onnx's VITS loader reads from a Piper model (what its own conversion
    /// script adds to the `.onnx`).
    var modelMetadata: [(key: String, value: String)] {
        [
            ("model_type", "vits"), ("comment", "piper"), ("language", language), ("voice", espeakVoice),
            ("has_espeak", "1"), ("n_speakers", String(speakerCount)), ("sample_rate", String(sampleRate)),
        ]
    }

    /// The whole file; voice files are small (a few kB).
    private static func read(_ path: String) throws(Problem) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Problem(message: "\(path) cannot be read: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw Problem(message: "\(path) cannot be read: \(String(cString: strerror(errno)))") }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<count])
            guard bytes.count <= 16 << 20 else { throw Problem(message: "\(path) is too large for a voice's JSON") }
        }
    }
}
