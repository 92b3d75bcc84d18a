// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import PiperVoices
import TestSupport
import Testing

@Suite("PiperVoiceScanner: finding installed pairs")
struct PiperVoiceScannerTests {
    @Test("pairs in both directories are found, the user's first; a user's voice hides the system's of the same name")
    func findsPairs() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let user = root.path + "/user"
        let system = root.path + "/system"
        try FakeVoice.install("en_US-joe-medium", in: user)
        try FakeVoice.install(
            "de_DE-thorsten-low", in: system,
            config: FakeVoice.config(code: "de_DE", dataset: "thorsten", quality: "low", espeak: "de"))
        try FakeVoice.install("en_US-joe-medium", in: system, config: FakeVoice.config(dataset: "system-joe"))
        var scanner = PiperVoiceScanner(directories: PiperVoiceDirectories(user: user, system: system))
        let scan = scanner.scan()
        #expect(scan.problems.isEmpty, "\(scan.problems)")
        #expect(scan.voices.map(\.name) == ["en_us-joe-medium", "de_de-thorsten-low"])
        #expect(scan.voices[0].modelPath == user + "/en_US-joe-medium.onnx")
        #expect(scan.voices[0].config.dataset == "joe")
        #expect(scan.voices[0].title == "joe (medium)")
        #expect(scan.voices[1].config.languages == ["de-de", "de"])
    }

    @Test("a broken pair is left out with a problem that names the file and what to fix; the good one stays")
    func reportsBrokenPairs() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        try FakeVoice.install("en_US-good-medium", in: root.path)
        try FakeVoice.install("en_US-halfmodel-medium", in: root.path, model: Array(FakeVoice.model.prefix(9)))
        try FakeVoice.install(
            "en_US-nomap-medium", in: root.path,
            config: FakeVoice.config().replacingOccurrences(of: "phoneme_id_map", with: "x"))
        try Data(FakeVoice.model).write(to: URL(fileURLWithPath: root.path + "/en_US-lonely-medium.onnx"))
        try Data(FakeVoice.config().utf8).write(to: URL(fileURLWithPath: root.path + "/en_US-orphan-medium.onnx.json"))
        var scanner = PiperVoiceScanner(directories: PiperVoiceDirectories(user: root.path, system: nil))
        let scan = scanner.scan()
        #expect(scan.voices.map(\.name) == ["en_us-good-medium"])
        let problems = scan.problems.map(\.description)
        #expect(problems.count == 4, "\(problems)")
        #expect(problems.contains { $0.contains("en_US-halfmodel-medium.onnx ") && $0.contains("cut short") })
        #expect(problems.contains { $0.contains("en_US-nomap-medium.onnx.json") && $0.contains("phoneme_id_map") })
        #expect(
            problems.contains {
                $0.contains("en_US-lonely-medium.onnx ")
                    && $0.contains("has no en_US-lonely-medium.onnx.json beside it")
            })
        #expect(
            problems.contains { $0.contains("en_US-orphan-medium.onnx.json") && $0.contains("has no model beside it") })
    }

    @Test("a rescan sees a pair added, a pair changed and a pair removed")
    func rescanSeesChanges() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        var scanner = PiperVoiceScanner(directories: PiperVoiceDirectories(user: root.path + "/voices", system: nil))
        #expect(scanner.scan() == PiperVoiceScanner.Scan(), "a missing directory is no voice and no problem")
        let path = try FakeVoice.install("en_US-joe-medium", in: root.path + "/voices")
        #expect(scanner.scan().voices.map(\.config.quality) == ["medium"])
        try Data(FakeVoice.config(quality: "high").utf8).write(to: URL(fileURLWithPath: path + ".json"))
        #expect(scanner.scan().voices.map(\.config.quality) == ["high"])
        try FileManager.default.removeItem(atPath: path)
        let scan = scanner.scan()
        #expect(scan.voices.isEmpty)
        #expect(scan.problems.count == 1)
    }

    @Test(
        "changedModels: after a rescan, the pairs installed again (new files) or removed, and none when nothing changed"
    )
    func changedModelsNamesReinstalledAndRemovedPairs() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let directory = root.path + "/voices"
        let joe = try FakeVoice.install("en_US-joe-medium", in: directory)
        let amy = try FakeVoice.install("en_US-amy-low", in: directory)
        var scanner = PiperVoiceScanner(directories: PiperVoiceDirectories(user: directory, system: nil))
        #expect(scanner.scan().voices.count == 2)
        _ = scanner.scan()
        #expect(scanner.changedModels.isEmpty, "nothing changed")
        // Installed again: new files in the same place.
        try FileManager.default.removeItem(atPath: joe)
        try FileManager.default.removeItem(atPath: joe + ".json")
        #expect(try FakeVoice.install("en_US-joe-medium", in: directory) == joe)
        _ = scanner.scan()
        #expect(scanner.changedModels == [joe])
        try FileManager.default.removeItem(atPath: amy)
        try FileManager.default.removeItem(atPath: amy + ".json")
        #expect(scanner.scan().voices.map(\.modelPath) == [joe])
        #expect(scanner.changedModels == [amy])
    }

    @Test(
        "the directories follow XDG_DATA_HOME, else HOME; ANNOUNCED_SYSTEM_VOICES moves the system's, empty removes it")
    func directories() {
        #expect(
            PiperVoiceDirectories(environment: ["XDG_DATA_HOME": "/d", "HOME": "/h"]).searchOrder == [
                "/d/announced/voices", "/usr/share/announced/voices",
            ])
        #expect(
            PiperVoiceDirectories(environment: ["XDG_DATA_HOME": "relative", "HOME": "/h"]).user
                == "/h/.local/share/announced/voices")
        #expect(PiperVoiceDirectories(environment: ["HOME": "/h", "ANNOUNCED_SYSTEM_VOICES": "/s"]).system == "/s")
        #expect(PiperVoiceDirectories(environment: ["ANNOUNCED_SYSTEM_VOICES": ""]).searchOrder == [])
    }
}
