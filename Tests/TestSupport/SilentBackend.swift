// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceCore
import POSIXThreads

/// A speech backend that records what it is asked to speak and never finishes on its own: the
/// test plays the engine's part through the dispatcher's backend events.
public final class SilentBackend: SpeechBackend {
    private let state = LockedValue<[Utterance]>([])
    /// Says what this backend is, where the daemon would name its audio output.
    public let outputDescription = "silent"
    /// Two voices, American English and German.
    public static let voices = [
        VoiceDescription(name: "en-us", languages: ["en-us", "en"]),
        VoiceDescription(name: "de", languages: ["de"]),
    ]
    /// ``voices``.
    public var voices: [VoiceDescription] { Self.voices }

    /// Creates a backend that has spoken nothing.
    public init() {}

    /// Records `utterance`.
    public func speak(_ utterance: Utterance) { state.withLock { $0.append(utterance) } }
    /// Does nothing: the test ends the utterance.
    public func abort(seq: UInt64) {}
    /// Does nothing: nothing plays.
    public func pause() {}
    /// Does nothing: nothing plays.
    public func resume() {}
    /// The utterances the dispatcher asked for, in order.
    public var spoken: [Utterance] { state.withLock { $0 } }
    /// The texts of ``spoken``.
    public var spokenTexts: [String] { spoken.map(\.text) }
}
