// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import SpeechSynthesis

/// espeak-ng's backend with the installed Piper voices listed beside its voices, so that
/// `voices`, `set`, a post's `voice` and the configuration know them. It stands in until the
/// engine seam puts the Piper engine behind the same backend: until then a post that selects a
/// Piper voice ends `error`, saying so, and nothing is sent to espeak-ng for it.
///
/// ``rescanVoices()`` may be called from any thread (the SSIP front-end calls it on a
/// connection's event loop): espeak-ng's voices never change and the catalog has its own lock.
final class PiperListingBackend: SpeechBackend {
    let espeak: EspeakBackend
    let piper: PiperVoiceCatalog
    let eventHandler: @Sendable (SpeechBackendEvent) -> Void

    init(espeak: EspeakBackend, piper: PiperVoiceCatalog, eventHandler: @escaping @Sendable (SpeechBackendEvent) -> Void) {
        self.espeak = espeak
        self.piper = piper
        self.eventHandler = eventHandler
    }

    func speak(_ utterance: Utterance) {
        guard !utterance.voice.hasSuffix(".onnx") else {
            let message = "this announced cannot speak Piper voices yet (the Piper engine is not built in); choose an espeak-ng voice"
            eventHandler(.finished(seq: utterance.seq, outcome: .failed(message: message, spokenChars: 0)))
            return
        }
        espeak.speak(utterance)
    }

    func abort(seq: UInt64) { espeak.abort(seq: seq) }
    func pause() { espeak.pause() }
    func resume() { espeak.resume() }
    var outputDescription: String { espeak.outputDescription }
    var voices: [VoiceDescription] { espeak.voices + piper.voices }
    func rescanVoices() -> [VoiceDescription] { espeak.voices + piper.rescan() }
}
