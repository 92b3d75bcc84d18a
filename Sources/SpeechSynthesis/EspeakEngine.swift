// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import Logging

/// espeak-ng behind the engine seam: its helper (`announced-espeak`) starts with the speech
/// thread, before the first post, and a helper that crashed or hung is replaced right after the
/// post it cost, so the next post does not wait for espeak-ng to load.
///
/// Used by the speech thread only, after `init` (which runs on it too).
final class EspeakEngine: SpeechEngine, @unchecked Sendable {
    let name = EngineHelperKind.espeak.engine
    let crashAdvice = "The text may trigger a known espeak-ng bug; rephrasing it avoids that."
    /// The synthesizer's sample rate (22050 Hz for espeak-ng's own voices).
    let sampleRate: Int
    /// The voices espeak-ng offers, listed once at start.
    let voices: [VoiceDescription]
    private let process: EngineHelperProcess

    /// Finds and starts the helper, and waits for espeak-ng to load.
    /// - Throws: `SpeechSynthesisError` when the helper cannot be found or started, or espeak-ng
    ///   cannot be initialized.
    init() throws(SpeechSynthesisError) {
        process = try EngineHelperProcess(kind: .espeak)
        try process.start()
        sampleRate = process.sampleRate
        voices = process.voices
    }

    /// The helper, started first when the last one died and was not replaced (its restart failed).
    func helper(for voice: String, on thread: SpeechThread, logger: Logger) -> EngineHelperAnswer {
        if !process.isRunning, let problem = restart(logger) { return .failed(problem) }
        return .ready(process)
    }

    /// Replaces a helper that died, now, after the terminal line; if that fails, the next post
    /// tries again and reports why.
    func giveBack(_ helper: EngineHelperProcess, voice: String, logger: Logger) {
        if !process.isRunning { _ = restart(logger) }
    }

    /// Starts a new helper process; nil when it runs, else why not (also logged).
    private func restart(_ logger: Logger) -> String? {
        do {
            try process.start()
            logger.notice("espeak-ng helper started", metadata: ["helper": "\(process.path)"])
            return nil
        } catch {
            logger.error("espeak-ng helper cannot start", metadata: ["error": "\(error)"])
            return error.message
        }
    }
}
