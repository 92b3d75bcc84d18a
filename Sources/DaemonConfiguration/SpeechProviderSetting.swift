// SPDX-License-Identifier: GPL-3.0-or-later

/// What `speech_provider` says: whether the daemon offers its voices to Spiel's clients as a
/// speech provider on the session bus.
public enum SpeechProviderSetting: String, Sendable, CaseIterable {
    /// It owns `org.announced.Speech.Provider` on the session bus.
    case on
    /// It does not: the name is left for another program, and Spiel's clients do not see announced.
    case off
}
