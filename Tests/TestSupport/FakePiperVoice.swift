// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Tiny fake Piper voices: a few bytes shaped like an ONNX model (a `ModelProto` with
/// `ir_version`, `producer_name` and a four-byte graph) and a `.onnx.json` shaped like Piper's.
/// They pass every check announced makes of a pair and are never given to an engine.
public enum FakeVoice {
    /// `ir_version` 8, `producer_name` "pytorch", a graph of four bytes: a whole ModelProto.
    public static let model: [UInt8] =
        [0x08, 0x08, 0x12, 0x07] + Array("pytorch".utf8) + [0x3A, 0x04, 0x0A, 0x02, 0x6E, 0x30]

    /// A `.onnx.json` as Piper writes it, with `code` as its language and the fields announced reads.
    public static func config(
        code: String = "en_US", dataset: String = "joe", quality: String = "medium", espeak: String = "en-us"
    ) -> String {
        """
        {"audio": {"sample_rate": 22050, "quality": "\(quality)"}, "espeak": {"voice": "\(espeak)"},
         "inference": {"noise_scale": 0.667, "length_scale": 1, "noise_w": 0.8}, "phoneme_type": "espeak",
         "phoneme_map": {}, "phoneme_id_map": {"_": [0], "^": [1], "$": [2], " ": [3], "a": [14], "b": [15]},
         "num_symbols": 256, "num_speakers": 1, "speaker_id_map": {}, "piper_version": "1.0.0",
         "language": {"code": "\(code)", "family": "en", "region": "US", "name_native": "English",
                      "name_english": "English", "country_english": "United States"},
         "dataset": "\(dataset)"}
        """
    }

    /// Writes `stem.onnx` and `stem.onnx.json` into `directory` (created if missing).
    @discardableResult
    public static func install(
        _ stem: String, in directory: String, model: [UInt8] = FakeVoice.model, config: String? = nil
    ) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/" + stem + ".onnx"
        try Data(model).write(to: URL(fileURLWithPath: path))
        try Data((config ?? FakeVoice.config()).utf8).write(to: URL(fileURLWithPath: path + ".json"))
        return path
    }
}

/// A fresh temporary directory, removed by `remove()`.
public struct TemporaryDirectory {
    /// Its absolute path.
    public let path: String

    /// Makes one.
    public init() throws {
        path = NSTemporaryDirectory() + "piper-voices-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Removes it and everything in it.
    public func remove() { try? FileManager.default.removeItem(atPath: path) }

    /// The names in `subpath`, sorted (empty when it does not exist).
    public func names(in subpath: String = "") -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path + subpath)) ?? []).sorted()
    }
}
