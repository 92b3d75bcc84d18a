import Logging
import SpeechSynthesis

/// Opens the audio output the daemon was asked for.
struct AudioOutputFactory {
    let logger: Logger

    func makeOutput(_ choice: AudioOutputChoice) throws -> any AudioOutput {
        switch choice {
        case .null:
            return NullAudioOutput()
        case .wav(let directory):
            do {
                return try WAVAudioOutput(directory: directory)
            } catch {
                throw StartupError(description: "cannot write WAV files to \(directory): \(error)")
            }
        case .auto:
            logger.warning("no audio output is available yet in this build: speech is synthesized but not heard; use --audio wav:DIR to record it")
            return NullAudioOutput()
        case .pulse, .alsa:
            throw StartupError(description: "the \(choice) output is not available in this build; use --audio null or wav:DIR")
        }
    }
}
