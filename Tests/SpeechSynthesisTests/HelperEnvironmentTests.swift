import Glibc
import Testing

// SPDX-License-Identifier: GPL-3.0-or-later
@testable import SpeechSynthesis

@Suite("The espeak-ng helper's environment")
struct HelperEnvironmentTests {
    /// The helper's environment built from `inherited`, as Swift strings.
    static func environment(from inherited: [String]) -> [String] {
        var pointers: [UnsafeMutablePointer<CChar>?] = inherited.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        let built = pointers.withUnsafeMutableBufferPointer {
            SpeechSynthesis.EngineHelperProcess.helperEnvironment(inherited: $0.baseAddress!)
        }
        defer { built.forEach { free($0) } }
        #expect(built.last == .some(nil), "NULL-terminated for posix_spawn")
        return built.compactMap { $0.map { String(cString: $0) } }
    }

    @Test("the Swift backtracer is turned off; everything else is passed on")
    func overrides() {
        let built = Self.environment(from: [
            "HOME=/home/a", "PULSE_SERVER=unix:/run/user/1000/pulse/native", "SWIFT_BACKTRACE=enable=yes",
            "XDG_RUNTIME_DIR=/run/user/1000",
        ])
        #expect(built.filter { $0.hasPrefix("SWIFT_BACKTRACE=") } == ["SWIFT_BACKTRACE=enable=no"])
        #expect(
            Set(built)
                == Set(
                    EngineHelperProcess.helperOverrides + [
                        "HOME=/home/a", "PULSE_SERVER=unix:/run/user/1000/pulse/native",
                        "XDG_RUNTIME_DIR=/run/user/1000",
                    ]))
    }
}
