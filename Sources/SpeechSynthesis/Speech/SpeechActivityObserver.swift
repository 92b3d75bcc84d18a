// SPDX-License-Identifier: GPL-3.0-or-later
/// Told by the speech thread when each utterance begins and ends playing, e.g. to lower other
/// applications' playback meanwhile (``PulseAudioDucker``).
///
/// Both calls are made on the speech thread, between the audio it writes: they must return at
/// once and never wait for anything.
public protocol SpeechActivityObserver: Sendable {
    /// An utterance is about to play.
    func utteranceBegan()
    /// The utterance that began has finished playing (or was stopped or failed).
    func utteranceEnded()
}
