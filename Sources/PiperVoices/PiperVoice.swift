// SPDX-License-Identifier: GPL-3.0-or-later

/// An installed Piper voice: a `.onnx` model with its `.onnx.json` beside it, both checked.
public struct PiperVoice: Sendable, Hashable {
    /// The name to select it with: the file name without `.onnx`, lower-cased, e.g.
    /// `en_us-joe-medium`.
    public var name: String
    /// The model's absolute path, e.g. `/home/me/.local/share/announced/voices/en_US-joe-medium.onnx`.
    public var modelPath: String
    /// What its `.onnx.json` says.
    public var config: PiperVoiceConfig

    /// Creates a voice.
    public init(name: String, modelPath: String, config: PiperVoiceConfig) {
        self.name = name
        self.modelPath = modelPath
        self.config = config
    }

    /// The `.onnx.json`'s path: the model's and `.json`.
    public var configPath: String { modelPath + ".json" }

    /// A title for lists: the dataset and quality, e.g. `joe (medium)`; nil when the
    /// configuration gives neither.
    public var title: String? {
        switch (config.dataset, config.quality) {
        case (let dataset?, let quality?): return "\(dataset) (\(quality))"
        case (let dataset?, nil): return dataset
        case (nil, let quality?): return "(\(quality))"
        case (nil, nil): return nil
        }
    }

    /// The voice name for a model's file name: without `.onnx`, lower-cased.
    public static func name(ofModelFile fileName: String) -> String {
        String(fileName.dropLast(PiperVoiceFiles.modelSuffix.count)).lowercased()
    }
}

/// The file names of a Piper voice's pair.
public enum PiperVoiceFiles {
    /// `.onnx`: the model.
    public static let modelSuffix = ".onnx"
    /// `.onnx.json`: its configuration.
    public static let configSuffix = ".onnx.json"
}
