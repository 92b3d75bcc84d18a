// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import AnnounceProtocol
import SSIPProtocol

/// An SSIP message as the dispatcher queues it: text, sound, priority and options.
enum SSIPMessagePost {
    /// The dispatcher's message for `message`, with the id its lines carry.
    static func make(_ message: SSIPMessage, id: RequestID, voices: SSIPVoiceCatalog) -> MessagePost {
        let settings = message.settings
        var text = message.text
        var sound: EarconSound?
        var spell = settings.spelling
        var ssml = settings.ssmlMode
        switch message.kind {
        case .text:
            break
        case .char:
            // `space` is how clients send a blank; it is said as the word.
            spell = message.text != "space"
            ssml = false
        case .key:
            text = spokenKey(message.text)
            spell = false
            ssml = false
        case .soundIcon:
            sound = earcon(named: message.text)
            text = ""
            ssml = false
        }
        // A block is spoken whole: its messages queue like `message` (speech-dispatcher treats a
        // block as one message of the block's priority; text would supersede its own messages).
        let priority =
            message.inBlock && settings.priority != .important
            ? MessagePriority.message : MessagePriority(settings.priority)
        // An unknown SYNTHESIS_VOICE was answered 209 (as speech-dispatcher does) and falls back
        // to the language's voice; so does one of another module than the one set.
        // A module announced does not have (`flite`) speaks as if none were set.
        let module = settings.outputModule.flatMap { voices.module(named: $0) }
        let chosenVoice = settings.synthesisVoice.flatMap { voices.knows($0, module: module) ? $0 : nil }
        // spd-say sends the locale's language, which is `C` (or `POSIX`) in a bare environment:
        // no language at all, so the default voice speaks, without a warning.
        let language = settings.language.flatMap { ["c", "posix", ""].contains($0.lowercased()) ? nil : $0 }
        let languageVoice = language.flatMap { voices.voice(forLanguage: $0) }
        // VOICE_TYPE's variants are for an engine that takes them (espeak-ng): a connection set
        // to another module has none, unless that module has no voice yet and the default
        // module speaks for it.
        let variant = voices.takesVariants(module: module) ? SSIPVoiceMapping.espeakVariant(settings.voiceType) : nil
        let (spelled, isSSML) = (spell, ssml)
        return MessagePost(id: id, text: text, sound: sound, priority: priority, engine: module) { defaults in
            var options = settings.speechOptions(
                defaultRate: defaults.rate, maxRate: defaults.ssipMaxRate, defaultPitch: defaults.pitch,
                defaultVolume: defaults.volume)
            options.voice = chosenVoice
            options.lang = language
            options.spell = spelled
            options.ssml = isSSML
            if let variant {
                options.voice = (chosenVoice ?? languageVoice ?? defaults.voice) + "+" + variant
            }
            return options
        }
    }

    /// `shift_a` → "shift a", `kp-enter` → "keypad enter", `control_alt_delete` → "control alt delete".
    static func spokenKey(_ name: String) -> String {
        var key = name
        if key.hasPrefix("kp-") { key = "keypad " + key.dropFirst(3) }
        return String(key.map { $0 == "_" || $0 == "-" ? " " : $0 })
    }

    /// The earcon a `SOUND_ICON` name plays; nil (nothing is played, and the message ends at once)
    /// for a name announced has no sound for, as speech-dispatcher does with unknown icons.
    static func earcon(named name: String) -> EarconSound? {
        switch name.lowercased() {
        case "screen-change", "screen_change", "screen-changed", "window": return .screenChange
        case "boundary", "end-of-screen", "edge": return .boundary
        default: return nil
        }
    }
}

extension MessagePriority {
    init(_ priority: SSIPPriority) {
        switch priority {
        case .important: self = .important
        case .message: self = .message
        case .text: self = .text
        case .notification: self = .notification
        case .progress: self = .progress
        }
    }
}
