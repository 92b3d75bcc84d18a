// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import PiperVoices
import TestSupport
import Testing

@Suite("PiperVoiceConfig and ONNXModelCheck: a pair's checks")
struct PiperVoiceConfigTests {
    @Test("a real-shaped .onnx.json gives its language, espeak voice, rate, quality and dataset")
    func parsesConfig() throws {
        let config = try PiperVoiceConfig(bytes: Array(FakeVoice.config(code: "en_GB", dataset: "alba", quality: "high", espeak: "en-gb-x-rp").utf8))
        #expect(config.languageCode == "en_GB")
        #expect(config.languages == ["en-gb", "en"])
        #expect(config.espeakVoice == "en-gb-x-rp")
        #expect(config.sampleRate == 22050)
        #expect(config.quality == "high")
        #expect(config.dataset == "alba")
        #expect(config.speakerCount == 1)
        #expect(config.phonemeCount == 6)
    }

    @Test("a language without a region is one tag")
    func languageWithoutRegion() throws {
        let config = try PiperVoiceConfig(bytes: Array(FakeVoice.config(code: "cmn").utf8))
        #expect(config.languages == ["cmn"])
    }

    @Test(
        "each missing field is refused with its name",
        arguments: [
            ("\"phoneme_id_map\"", "phoneme_id_map"), ("\"sample_rate\"", "sample_rate"), ("\"voice\"", "espeak"),
            ("\"code\"", "language"),
        ]
    )
    func refusesMissingField(key: String, named: String) throws {
        let broken = FakeVoice.config().replacingOccurrences(of: key, with: "\"renamed\"")
        #expect(throws: PiperVoiceProblem.self) { try PiperVoiceConfig(bytes: Array(broken.utf8)) }
        do {
            _ = try PiperVoiceConfig(bytes: Array(broken.utf8))
        } catch {
            #expect(error.problem.contains(named), "\(error.problem)")
        }
    }

    @Test("a .onnx.json cut short is not valid JSON, and the problem says to download it again")
    func refusesCutShortJSON() throws {
        let bytes = Array(FakeVoice.config().utf8)
        do {
            _ = try PiperVoiceConfig(bytes: bytes.prefix(bytes.count / 2))
            Issue.record("a half file was accepted")
        } catch {
            #expect(error.problem.contains("not valid JSON"))
            #expect(error.problem.contains("download it again"))
        }
    }

    @Test("the fake model is a whole ONNX model; every shorter prefix of it is refused as cut short")
    func modelFraming() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/m.onnx"
        try Data(FakeVoice.model).write(to: URL(fileURLWithPath: path))
        try check(path)
        for length in 1..<FakeVoice.model.count {
            try Data(FakeVoice.model.prefix(length)).write(to: URL(fileURLWithPath: path))
            #expect(throws: PiperVoiceProblem.self, "prefix of \(length) bytes") { try check(path) }
        }
    }

    @Test("an empty file, a text file and a protobuf without a graph are not models", arguments: [
        ([UInt8](), "empty"), (Array("{\"not\": \"onnx\"}".utf8), "does not start like an ONNX model"),
        ([0x08, 0x08, 0x12, 0x01, 0x41], "no model graph"),
    ])
    func refusesNonModels(bytes: [UInt8], expected: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/m.onnx"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        do {
            try check(path)
            Issue.record("accepted")
        } catch {
            #expect(error.problem.contains(expected), "\(error.problem)")
        }
    }

    func check(_ path: String) throws(PiperVoiceProblem) {
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        var info = stat()
        fstat(fd, &info)
        try ONNXModelCheck.check(descriptor: fd, size: Int(info.st_size))
    }
}
