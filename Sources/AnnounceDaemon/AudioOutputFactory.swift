// SPDX-License-Identifier: GPL-3.0-or-later
import DaemonConfiguration
import Logging
import SpeechSynthesis

/// Opens the audio output the daemon was asked for.
struct AudioOutputFactory {
    let logger: Logger

    /// Opens `choice`.
    ///
    /// `auto` tries PulseAudio (or PipeWire's PulseAudio server), then ALSA's device, then falls
    /// back to `null` with one warning. A named output that cannot open throws a `StartupError`
    /// saying what was tried.
    /// - Parameter device: the device from the configuration: the ALSA PCM name for `alsa` and
    ///   `auto` (default `default`), the sink for `pulse` (default: the server's default sink).
    ///   (`--audio alsa:DEVICE` is `alsa` on that device.)
    func makeOutput(_ choice: AudioOutputSetting, device: String? = nil) throws -> any AudioOutput {
        let output: any AudioOutput
        switch choice {
        case .null:
            output = NullAudioOutput()
        case .wav(let directory):
            do {
                output = try WAVAudioOutput(directory: directory)
            } catch {
                throw StartupError(description: "cannot write WAV files to \(directory): \(error)")
            }
        case .pulse:
            do {
                output = try PulseAudioOutput(sink: device)
            } catch {
                throw StartupError(description: "--audio pulse: \(error)")
            }
        case .alsa:
            do {
                output = try ALSAAudioOutput(device: device ?? "default")
            } catch {
                throw StartupError(description: "--audio alsa\(device.map { ":" + $0 } ?? ""): \(error)")
            }
        case .auto:
            output = makeAutomatic(alsaDevice: device ?? "default")
        }
        // Said at info level once the daemon serves (a start that fails later would otherwise
        // log an output it never used).
        logger.debug("audio output opened", metadata: ["output": "\(output)"])
        return output
    }

    /// PulseAudio if a server answers, else ALSA if the device opens, else `null` with a warning.
    private func makeAutomatic(alsaDevice: String) -> any AudioOutput {
        let pulseFailure: String
        do {
            return try PulseAudioOutput()
        } catch {
            pulseFailure = "\(error)"
            logger.debug("auto: PulseAudio is not available", metadata: ["error": "\(pulseFailure)"])
        }
        let alsaFailure: String
        do {
            return try ALSAAudioOutput(device: alsaDevice)
        } catch {
            alsaFailure = "\(error)"
            logger.debug("auto: ALSA is not available", metadata: ["error": "\(alsaFailure)"])
        }
        logger.warning(
            """
            no audio output could be opened, so speech is synthesized but not heard. \
            Tried PulseAudio (\(Self.firstClause(pulseFailure))) and the ALSA device \
            '\(alsaDevice)' (\(Self.firstClause(alsaFailure))). Start a sound server or name a \
            device with --audio alsa:DEVICE; to record the speech instead, use --audio wav:DIR.
            """
        )
        return NullAudioOutput()
    }

    /// The part of an output's error message before its advice.
    private static func firstClause(_ message: String) -> String {
        guard let end = message.firstRange(of: ". ") else { return message }
        return String(message[..<end.lowerBound])
    }
}
