// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import PiperVoices
import TestSupport
import Testing

@Suite("PiperVoiceConfig and ONNXModelCheck: a pair's checks")
struct PiperVoiceConfigTests {
    @Test("a real-shaped .onnx.json gives its language, espeak voice, rate, quality and dataset")
    func parsesConfig() throws {
        let config = try PiperVoiceConfig(
            bytes: Array(FakeVoice.config(code: "en_GB", dataset: "alba", quality: "high", espeak: "en-gb-x-rp").utf8))
        #expect(config.languageCode == "en_GB")
        #expect(config.languages == ["en-gb", "en"])
        #expect(config.espeakVoice == "en-gb-x-rp")
        #expect(config.sampleRate == 22050)
        #expect(config.quality == "high")
        #expect(config.dataset == "alba")
        #expect(config.speakerCount == 1)
        #expect(config.phonemeCount == 6)
        #expect(config.languageName == "English")
    }

    @Test(
        "what announced-piper loads with: the phoneme ids in the file's order, and the inference scales, Piper's defaults where missing"
    )
    func engineFields() throws {
        let config = try PiperVoiceConfig(bytes: Array(FakeVoice.config().utf8))
        #expect(config.phonemeIDs.map(\.symbol) == ["_", "^", "$", " ", "a", "b"])
        #expect(config.phonemeIDs.map(\.id) == [0, 1, 2, 3, 14, 15])
        let scaled = FakeVoice.config().replacingOccurrences(
            of: "\"noise_scale\": 0.667, \"length_scale\": 1, \"noise_w\": 0.8",
            with: "\"noise_scale\": 0.5, \"length_scale\": 1.25"
        )
        let settings = try PiperVoiceConfig(bytes: Array(scaled.utf8)).inference
        #expect(settings == PiperInferenceSettings(noiseScale: 0.5, lengthScale: 1.25, noiseWidth: 0.8))
    }

    @Test("read from its path: a missing file says it cannot be read and what to check")
    func readsPath() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/v.onnx.json"
        try FakeVoice.config(code: "de_DE").write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try PiperVoiceConfig(contentsOf: path).languageCode == "de_DE")
        do {
            _ = try PiperVoiceConfig(contentsOf: directory.path + "/missing.onnx.json")
            Issue.record("a missing file was read")
        } catch {
            #expect(error.problem.hasPrefix("cannot be read (No such file or directory)"), "\(error.problem)")
        }
    }

    @Test(
        "a voice for other phonemes, or a phoneme map entry without ids, is refused with what is wrong",
        arguments: [
            ("\"phoneme_type\": \"espeak\"", "\"phoneme_type\": \"text\"", "\"phoneme_type\": \"text\""),
            ("\"a\": [14]", "\"a\": 14", "entry \"a\""),
            ("\"b\": [15]", "\"b\": []", "entry \"b\""),
        ]
    )
    func refusesMalformedEngineFields(field: String, replacement: String, named: String) throws {
        let broken = FakeVoice.config().replacingOccurrences(of: field, with: replacement)
        #expect(broken != FakeVoice.config())
        do {
            _ = try PiperVoiceConfig(bytes: Array(broken.utf8))
            Issue.record("accepted: \(broken)")
        } catch {
            #expect(error.problem.contains(named), "\(error.problem)")
        }
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

    @Test(
        "an empty file, a text file and a protobuf without a graph are not models",
        arguments: [
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
