// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import EngineWire
import Foundation
import Testing

/// Without the engine (a machine where the `announced-piper` package or
/// scripts/fetch-piper-engine.sh did not put it): the helper says so and exits; it needs nothing
/// fetched, so this runs everywhere.
@Suite("announced-piper without its engine", .onBlockingThreads)
struct PiperEngineMissingTests {
    @Test(
        "initializationFailed 1, a message naming where it looked and what to install, exit status 1",
        .enabled(
            if: !FileManager.default.fileExists(atPath: "/usr/lib/announced/piper/libsherpa-onnx-c-api.so"),
            "the engine is installed system-wide")
    )
    func missingEngine() throws {
        let helper = try PiperHelper(environment: ["ANNOUNCED_PIPER_LIBRARY_DIR": "/nonexistent/piper-engine"])
        #expect(helper.next() == .initializationFailed(code: 1))
        #expect(helper.waitForExit() == 1)
        let errors = helper.errors
        #expect(
            errors.contains("/nonexistent/piper-engine") && errors.contains("/usr/lib/announced/piper"), "\(errors)")
        #expect(
            errors.contains("scripts/fetch-piper-engine.sh") && errors.contains("announced-piper package"), "\(errors)")
    }
}
