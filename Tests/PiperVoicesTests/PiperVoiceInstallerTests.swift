// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import PiperVoices
import TestSupport
import Testing

@Suite("PiperVoiceInstaller: a pair in place whole, or not at all")
struct PiperVoiceInstallerTests {
    /// Fills two temporary files of `installer` with `model` and `config`.
    func temporaries(_ installer: PiperVoiceInstaller, stem: String, model: [UInt8], config: String) throws -> (
        PiperVoiceInstaller.TemporaryFile, PiperVoiceInstaller.TemporaryFile
    ) {
        let modelFile = try installer.makeTemporaryFile(for: stem + ".onnx")
        let configFile = try installer.makeTemporaryFile(for: stem + ".onnx.json")
        _ = model.withUnsafeBytes { write(modelFile.descriptor, $0.baseAddress, $0.count) }
        _ = Array(config.utf8).withUnsafeBytes { write(configFile.descriptor, $0.baseAddress, $0.count) }
        return (modelFile, configFile)
    }

    @Test("installing creates the directory, leaves exactly the pair, and the scanner finds it")
    func installs() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let installer = PiperVoiceInstaller(directory: root.path + "/a/b/voices")
        let (model, config) = try temporaries(
            installer, stem: "en_US-x-low", model: FakeVoice.model, config: FakeVoice.config(quality: "low"))
        #expect(
            root.names(in: "/a/b/voices").count == 2 && root.names(in: "/a/b/voices").allSatisfy { $0.hasPrefix(".") },
            "temporary files are hidden")
        let voice = try installer.install(stem: "en_US-x-low", model: model, config: config)
        #expect(voice.name == "en_us-x-low" && voice.config.quality == "low")
        #expect(root.names(in: "/a/b/voices") == ["en_US-x-low.onnx", "en_US-x-low.onnx.json"])
        var scanner = PiperVoiceScanner(directories: PiperVoiceDirectories(user: installer.directory, system: nil))
        #expect(scanner.scan().voices.map(\.name) == ["en_us-x-low"])
    }

    @Test("a refused pair removes its temporary files and leaves the installed voice of the same name as it was")
    func refusalKeepsTheOldPair() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let installer = PiperVoiceInstaller(directory: root.path)
        let path = try FakeVoice.install("en_US-x-low", in: root.path, config: FakeVoice.config(quality: "low"))
        let (model, config) = try temporaries(
            installer, stem: "en_US-x-low", model: Array(FakeVoice.model.prefix(7)),
            config: FakeVoice.config(quality: "high"))
        #expect(throws: PiperVoiceProblem.self) {
            try installer.install(stem: "en_US-x-low", model: model, config: config)
        }
        #expect(root.names() == ["en_US-x-low.onnx", "en_US-x-low.onnx.json"])
        #expect(try String(contentsOfFile: path + ".json", encoding: .utf8).contains("\"low\""))
    }

    @Test("remove takes the .onnx.json and the model; a name not installed is nil")
    func removes() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        try FakeVoice.install("en_US-x-low", in: root.path)
        let installer = PiperVoiceInstaller(directory: root.path)
        #expect(try installer.remove(named: "EN_us-x-low") == root.path + "/en_US-x-low.onnx")
        #expect(root.names().isEmpty)
        #expect(try installer.remove(named: "en_us-x-low") == nil)
    }
}
