// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceCore

extension LiveSettings {
    /// What the daemon's front doors read, derived once from `settings`: the speech defaults,
    /// `voice_for_language`, `earcons`, `ssip_max_rate`, `history_size`, `history_ssip`, `clients` and the limits. Every key a reload applies
    /// (``SettingReload/applied``) is carried here, and nothing a reload does not apply but the
    /// limits, which ``reloaded(_:)`` keeps.
    public init(_ settings: DaemonSettings) {
        self.init(
            voice: settings.voice,
            voicePreferences: VoicePreferences(
                settings.voiceForLanguage.map { (language: $0.language, voice: $0.voice) }),
            rate: settings.rate, pitch: settings.pitch, volume: settings.volume, punctuation: settings.punctuation,
            earcons: settings.earcons, ssipMaxRate: settings.ssipMaxRate, historySize: settings.historySize,
            historySSIP: settings.historySSIP, clients: settings.clients, maxTextChars: settings.maxTextChars,
            maxPendingPerClient: settings.maxPendingPerClient)
    }

    /// The settings a reload to `settings` gives: what it applies from them, the limits (which
    /// take effect at a restart) as they are now.
    public func reloaded(_ settings: DaemonSettings) -> LiveSettings {
        var next = LiveSettings(settings)
        next.maxTextChars = maxTextChars
        next.maxPendingPerClient = maxPendingPerClient
        return next
    }
}
