// SPDX-License-Identifier: GPL-3.0-or-later
import DaemonConfiguration
import Logging
import SpeechSynthesis

/// Starts ducking (lowering other applications' playback while announced speaks) as the `duck`
/// setting says, when the audio output can do it.
struct DuckingStart {
    let logger: Logger

    /// The ducker for `setting`, or nil when it is off or cannot work with `output` (logged).
    /// - Parameter socketPath: the main socket; the ducker's state file goes in its directory.
    func makeDucker(_ setting: DuckSetting, output: any AudioOutput, socketPath: String) -> PulseAudioDucker? {
        guard case .level(let decibels) = setting else { return nil }
        guard let pulse = output as? PulseAudioOutput else {
            logger.warning(
                "duck is \(decibels) dB, but the audio output is \(output): ducking works only through PulseAudio or PipeWire's pulse server, so other applications are not lowered. Use --audio pulse (or auto with a sound server running), or set duck to off."
            )
            return nil
        }
        let stateFile = Self.stateFile(socketPath: socketPath)
        do {
            let ducker = try PulseAudioDucker(
                decibels: decibels, server: pulse.server, stateFile: stateFile, logger: logger)
            logger.info(
                "ducking: other applications are lowered while announced speaks",
                metadata: ["dB": "\(decibels)", "state": "\(stateFile)"])
            return ducker
        } catch {
            logger.error("\(error.message); other applications are not lowered while announced speaks")
            return nil
        }
    }

    /// Where the ducker writes down what it lowered: `ducked-streams.json` beside the socket, in
    /// the daemon's runtime directory.
    static func stateFile(socketPath: String) -> String {
        guard let slash = socketPath.lastIndex(of: "/") else { return "ducked-streams.json" }
        return socketPath[...slash] + "ducked-streams.json"
    }
}
