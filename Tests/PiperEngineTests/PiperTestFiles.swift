// SPDX-License-Identifier: GPL-3.0-or-later
import CAnnounceLinux
import EngineWire
import Foundation
import Glibc
import TestSupport

/// Where the tests find the engine and the test voice that scripts/fetch-piper-engine.sh fetched.
enum PiperTestFiles {
    /// The repository, from this file's path.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The engine: `ANNOUNCED_PIPER_ENGINE_DIR`, else the script's default `.build/piper-engine`.
    static let engineDirectory =
        ProcessInfo.processInfo.environment["ANNOUNCED_PIPER_ENGINE_DIR"] ?? repository + "/.build/piper-engine"

    /// The directory of the engine's libraries.
    static var libraryDirectory: String { engineDirectory + "/lib" }

    /// The directory of the test voice: the script's cache.
    static let voiceDirectory: String = {
        let environment = ProcessInfo.processInfo.environment
        let cache =
            environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory() + "/.cache"
        return cache + "/announced/voices"
    }()

    /// The test voice's `.onnx`.
    static var voice: String { voiceDirectory + "/en_US-joe-medium.onnx" }

    /// Whether the script has run: the engine's library and the voice with its JSON are there.
    static var isFetched: Bool {
        FileManager.default.fileExists(atPath: libraryDirectory + "/libsherpa-onnx-c-api.so")
            && FileManager.default.fileExists(atPath: voice) && FileManager.default.fileExists(atPath: voice + ".json")
    }

    /// Why the tests that need them are skipped.
    static let missing = "the Piper engine or test voice is not fetched: run scripts/fetch-piper-engine.sh"

    /// The helper, built beside the test runner.
    static var helper: String { builtExecutable("announced-piper") }

    /// The executable `name` (a helper), built beside the test runner.
    static func builtExecutable(_ name: String) -> String { HelperProcess.builtExecutable(name) }
}

/// The tests here drive `announced-piper` (and `announced-espeak`) as ``HelperProcess``es.
typealias PiperHelper = HelperProcess

extension HelperProcess {
    /// Starts the helper (`executable`, by default `announced-piper`) with the fetched engine and
    /// the test voice's directory readable; `environment` adds or replaces variables
    /// (`ANNOUNCED_PIPER_UNSANDBOXED=1`, ...).
    convenience init(executable: String = PiperTestFiles.helper, environment extra: [String: String] = [:]) throws {
        var environment = ProcessInfo.processInfo.environment
        environment["ANNOUNCED_PIPER_LIBRARY_DIR"] = PiperTestFiles.libraryDirectory
        environment["ANNOUNCED_PIPER_VOICE_DIRS"] = PiperTestFiles.voiceDirectory
        environment["SWIFT_BACKTRACE"] = "enable=no"
        environment.removeValue(forKey: "ANNOUNCED_PIPER_UNSANDBOXED")
        for (key, value) in extra { environment[key] = value }
        try self.init(spawning: executable, environment: environment)
    }

    /// A synthesis request for the test voice (or `voice`).
    static func request(
        _ text: String, voice: String = PiperTestFiles.voice, ssml: Bool = false, rate: Int32 = 175, volume: Int32 = 100
    ) -> EngineRequest {
        synthesize(text, voice: voice, ssml: ssml, rate: rate, volume: volume)
    }
}
