// SPDX-License-Identifier: GPL-3.0-or-later
/// Whose messages or settings a command acts on: `self`, `all`, or a connection's client id (the
/// number `HISTORY GET CLIENT_ID` answers).
public enum SSIPScope: Sendable, Hashable {
    /// This connection.
    case `self`
    /// Every connection of the user.
    case all
    /// The connection with this client id.
    case client(Int)
}

/// SSIP's five message priorities (shared/ssip.md §4).
public enum SSIPPriority: String, Sendable, Hashable, CaseIterable {
    /// Never interrupted; cancels what speaks unless that is important.
    case important
    /// Waits its turn; cancels text, notification and progress.
    case message
    /// Only the newest text survives; waits for important and message.
    case text
    /// Spoken only when nothing else speaks or waits; a newer one replaces it.
    case notification
    /// Like notification, but a new one is dropped while one speaks; the last of a series is spoken.
    case progress
}

/// The event types `SET SELF NOTIFICATION` turns on and off.
public enum SSIPNotification: String, Sendable, Hashable, CaseIterable {
    /// 701 BEGIN.
    case begin
    /// 702 END.
    case end
    /// 703 CANCELED.
    case cancel
    /// 704 PAUSED.
    case pause
    /// 705 RESUMED.
    case resume
    /// 700 INDEX MARK.
    case indexMarks = "index_marks"
}

/// `SET … PUNCTUATION`.
public enum SSIPPunctuation: String, Sendable, Hashable, CaseIterable {
    /// Every punctuation character is spoken.
    case all
    /// Most punctuation is spoken.
    case most
    /// Some punctuation is spoken.
    case some
    /// None is spoken.
    case none
}

/// `SET … CAP_LET_RECOGN`: how capital letters are signalled.
public enum SSIPCapitalLetters: String, Sendable, Hashable, CaseIterable {
    /// Not signalled.
    case none
    /// Spoken as "capital".
    case spell
    /// Signalled with a sound.
    case icon
}

/// `SET … VOICE_TYPE`: the eight symbolic voices of `LIST VOICES`.
public enum SSIPVoiceType: String, Sendable, Hashable, CaseIterable {
    /// MALE1
    case male1 = "MALE1"
    /// MALE2
    case male2 = "MALE2"
    /// MALE3
    case male3 = "MALE3"
    /// FEMALE1
    case female1 = "FEMALE1"
    /// FEMALE2
    case female2 = "FEMALE2"
    /// FEMALE3
    case female3 = "FEMALE3"
    /// CHILD_MALE
    case childMale = "CHILD_MALE"
    /// CHILD_FEMALE
    case childFemale = "CHILD_FEMALE"
}

/// What `SET <scope> …` changes.
public enum SSIPSetting: Sendable, Hashable {
    /// CLIENT_NAME (SELF only), quotes removed.
    case clientName(String)
    /// NOTIFICATION `type` on/off (SELF only); nil type means `all`.
    case notification(SSIPNotification?, Bool)
    /// PRIORITY (SELF only).
    case priority(SSIPPriority)
    /// RATE, -100...100.
    case rate(Int)
    /// PITCH, -100...100.
    case pitch(Int)
    /// PITCH_RANGE, -100...100.
    case pitchRange(Int)
    /// VOLUME, -100...100.
    case volume(Int)
    /// LANGUAGE, a language tag as given.
    case language(String)
    /// VOICE_TYPE.
    case voiceType(SSIPVoiceType)
    /// SYNTHESIS_VOICE: an engine voice name (the rest of the line).
    case synthesisVoice(String)
    /// OUTPUT_MODULE.
    case outputModule(String)
    /// PUNCTUATION.
    case punctuation(SSIPPunctuation)
    /// CAP_LET_RECOGN.
    case capitalLetters(SSIPCapitalLetters)
    /// SPELLING on/off.
    case spelling(Bool)
    /// SSML_MODE on/off.
    case ssmlMode(Bool)
    /// PAUSE_CONTEXT.
    case pauseContext(Int)
    /// DEBUG on/off.
    case debug(Bool)
    /// DEBUG_DESTINATION.
    case debugDestination(String)
}

/// What `GET` reads.
public enum SSIPGetItem: String, Sendable, Hashable, CaseIterable {
    /// RATE
    case rate
    /// PITCH
    case pitch
    /// VOLUME
    case volume
    /// LANGUAGE
    case language
    /// OUTPUT_MODULE
    case outputModule = "output_module"
    /// VOICE_TYPE
    case voiceType = "voice_type"
    /// PUNCTUATION
    case punctuation
}

/// What `LIST` lists.
public enum SSIPListItem: String, Sendable, Hashable, CaseIterable {
    /// The eight symbolic voices.
    case voices
    /// The output modules.
    case outputModules = "output_modules"
    /// The engine's voices.
    case synthesisVoices = "synthesis_voices"
}

/// One command line from an SSIP client, parsed.
public enum SSIPCommand: Sendable, Hashable {
    /// `SPEAK`: the message's text follows in data mode.
    case speak
    /// `CHAR c` (`space` for a blank).
    case char(String)
    /// `KEY name`.
    case key(String)
    /// `SOUND_ICON name`.
    case soundIcon(String)
    /// `STOP scope`: the current message of the scope.
    case stop(SSIPScope)
    /// `CANCEL scope`: current and queued messages of the scope.
    case cancel(SSIPScope)
    /// `PAUSE scope`.
    case pause(SSIPScope)
    /// `RESUME scope`.
    case resume(SSIPScope)
    /// `SET scope …`.
    case set(SSIPScope, SSIPSetting)
    /// `GET item`.
    case get(SSIPGetItem)
    /// `LIST item`.
    case list(SSIPListItem)
    /// `HISTORY GET CLIENT_ID`.
    case historyClientID
    /// `BLOCK BEGIN`.
    case blockBegin
    /// `BLOCK END`.
    case blockEnd
    /// `HELP`.
    case help
    /// `QUIT` or `BYE`.
    case quit
}
