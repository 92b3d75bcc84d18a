// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceCore
public import AnnounceProtocol
public import LanguageRuns

/// Every configuration key, one entry each, in the order the sample file and the README list them.
///
/// Adding a key is adding an entry here: ``DaemonSettings`` then has it (`settings.newKey`), the
/// file, its variable and its flag set it, errors state its requirement, a reload applies it or
/// the restart notice names it, and the sample and the README's table (whose test compares them
/// with Config/) show it.
public struct SettingsTable: Sendable {
    /// The table.
    public static let shared = SettingsTable()

    /// Every entry, in declaration order.
    public static let entries: [any AnySetting] = Mirror(reflecting: shared).children.compactMap {
        $0.value as? any AnySetting
    }

    /// The table; ``shared`` is the one to use.
    public init() {}

    /// `socket`.
    public let socket = Setting<String?>(
        "socket", .orNull(.text("must be the path of a Unix socket, not empty")), default: nil, environment: .notRead,
        flag: SettingFlag("--socket", value: "path", path: .whole), reload: .needsRestart,
        doc: "The Unix socket to serve.",
        details:
            "Null: the protocol's fallbacks above (`ANNOUNCED_SOCKET`, then `$XDG_RUNTIME_DIR/announced/announced.sock`). "
            + "Ignored under socket activation (the systemd units pass the socket).")

    /// `ssip_socket`.
    public let ssipSocket = Setting<SSIPSocketSetting>(
        "ssip_socket",
        .parsed(
            summary: "`\"off\"`, `\"default\"` or an absolute path",
            requirement:
                "must be off, default (speech-dispatcher's place, $XDG_RUNTIME_DIR/speech-dispatcher/speechd.sock) "
                + "or the absolute path of a Unix socket", SSIPSocketSetting.init),
        default: .off, flag: SettingFlag("--ssip-socket", value: "path|default|off"), reload: .needsRestart,
        doc: "Also serve speech-dispatcher's protocol (SSIP), for Orca, spd-say, python3-speechd and libspeechd.",
        details: "`default` is speech-dispatcher's own socket, where those clients look first: "
            + "`$XDG_RUNTIME_DIR/speech-dispatcher/speechd.sock` (without `XDG_RUNTIME_DIR`, libspeechd's fallback: "
            + "`$XDG_CACHE_HOME`, else `~/.cache`, then `/speech-dispatcher/speechd.sock`); its directory is created 0700 and "
            + "refused, like the main socket's default directory, unless it is yours with mode 0700. A path is served as named. "
            + "Under socket activation a socket passed by `announced-ssip.socket` is served whatever this says.")

    /// `ssip_max_rate`.
    public let ssipMaxRate = Setting<Int>(
        "ssip_max_rate", .integer(SpeechRanges.rate), default: SpeechRanges.ssipMaxRate, reload: .applied,
        doc: "The rate SSIP's `RATE 100` speaks at, in words per minute: the top of Orca's rate slider, as "
            + "speech-dispatcher's `EspeakMaxRate` sets it.",
        details:
            "SSIP's `RATE` runs from -100 to 100 around `rate` (0): 100 is this rate (or `rate`, when that is higher), "
            + "-100 the slowest. The default is speech-dispatcher's own top; raise it, up to the engines' limit, to listen "
            + "faster than that (espeak-ng speeds up past it with its sonic speed-up; a Piper voice shortens its length "
            + "scale). The native protocol's `rate` and Spiel's rate factor do not depend on it.")

    /// `audio.output`.
    public let audioOutput = Setting<AudioOutputSetting>(
        "audio.output",
        .parsed(
            summary: "`\"auto\"`, `\"pulse\"`, `\"alsa\"`, `\"null\"` or `\"wav:DIR\"`",
            requirement: "must be auto, pulse, alsa, null or wav:DIR",
            AudioOutputSetting.init),
        default: .auto, environment: .named("ANNOUNCED_AUDIO"),
        flag: SettingFlag(
            "--audio", value: "output", path: .after("wav:"), extraHelp: "alsa:DEVICE is alsa on that device",
            shorthand: { text in
                guard text.hasPrefix("alsa:"), text.count > 5 else { return nil }
                return [("audio.output", "alsa"), ("audio.device", String(text.dropFirst(5)))]
            }),
        reload: .needsRestart,
        doc: "Where audio goes.",
        details:
            "`auto` (PulseAudio/PipeWire, else ALSA, else `null`), `pulse`, `alsa`, `null` (plays into nothing in real "
            + "time) or `wav:DIR` (`null`, plus each post's audio in `DIR/<seq>.wav`).")

    /// `audio.device`.
    public let audioDevice = Setting<String?>(
        "audio.device", .orNull(.text("must not be empty (leave it out, or null, for the output's default device)")),
        default: nil,
        reload: .needsRestart,
        doc: "The PulseAudio sink or ALSA device to play on; null is the output's default device.")

    /// `voice`.
    public let voice = Setting<String>(
        "voice", .text("must be a voice name such as en-us or en_us-joe-medium (announcectl voices lists them)"),
        default: "en-us",
        flag: SettingFlag("--voice", value: "name"), reload: .applied,
        doc: "The default voice: espeak-ng's by language or file name (en-us, en-gb, gmw/en, de), "
            + "or an installed Piper voice's name (en_us-joe-medium).",
        details:
            "`espeak-ng --voices` lists espeak-ng's, `announcectl voices` lists them all; an unknown one stops the start "
            + "(and a reload keeps the old voice).")

    /// `voice_for_language`.
    public let voiceForLanguage = Setting<[LanguageVoice]>(
        "voice_for_language", LanguageVoice.settingType, default: [], reload: .applied,
        doc: "Which voice speaks a language when a post (or an SSIP message) names only its language.",
        details:
            "For example `{\"en\": \"en_us-joe-medium\", \"de\": \"de\"}`: a Piper voice for English, espeak-ng for German. "
            + "A post with `lang` `en-GB` takes the voice given for `en-gb`, else the one for `en`; a language not listed speaks "
            + "with the voice that lists it earliest (espeak-ng's). A voice named here that is not installed is logged as a warning "
            + "at start and reload, and passed over until it is installed. `ANNOUNCED_VOICE_FOR_LANGUAGE=en=en_us-joe-medium,de=de`."
    )

    /// `language_switching`.
    public let languageSwitching = Setting<LanguageSwitching>(
        "language_switching", .word(LanguageSwitching.self), default: .script, reload: .needsRestart,
        doc: "Whether a post's text is cut into runs of one language, each spoken by the voice for its language: "
            + "`off`, `script` or `detect`.",
        details:
            "`off`: the whole post in its voice. `script`: a run in a script the post's language is not written in "
            + "(Cyrillic, Greek, Hebrew, Arabic, Hangul, kana, Han, Devanagari, Thai) is spoken in the language that script "
            + "implies, or the first of `languages` written in it. `detect`: also phrases of three words or more in a script "
            + "several of `languages` share, identified by CLD2 among them (one it is not sure of stays in the post's language). "
            + "SSML's `xml:lang` makes a run in every mode but `off`. Each run speaks with the voice `voice_for_language` "
            + "names for its language, else espeak-ng's (Chinese: `cmn-latn-pinyin`), at the post's rate, pitch and volume; "
            + "a language no voice speaks stays in the post's voice. A post stays one post: one `started`, one terminal line. "
            + "`announcectl monitor` shows each run's language, voice and engine as it starts."
    )

    /// `languages`.
    public let languages = Setting<[String]>(
        "languages",
        .list(
            of: .text("must be a language tag such as en, uk or pt-BR"),
            requirement: "must be a list of language tags such as [\"en\", \"uk\"]"),
        default: [], reload: .needsRestart,
        doc: "The languages you read, in order of preference; empty (the default) is the default voice's language.",
        details:
            "Where a script serves several languages, the first of these written in it reads a run in that script: "
            + "`[\"en\", \"uk\"]` reads Cyrillic as Ukrainian. `detect` chooses among them. `ANNOUNCED_LANGUAGES=en,uk`."
    )

    /// `rate`.
    public let rate = Setting<Int>(
        "rate", .integer(SpeechRanges.rate), default: 175, flag: SettingFlag("--rate", value: "wpm"), reload: .applied,
        doc: "The default rate, words per minute.")

    /// `pitch`.
    public let pitch = Setting<Int>(
        "pitch", .integer(SpeechRanges.pitch), default: 50, flag: SettingFlag("--pitch", value: "pitch"),
        reload: .applied,
        doc: "The default pitch (50 is the voice's own).",
        details: "Piper voices ignore it (their models have no pitch to change); rate and volume apply to both engines."
    )

    /// `volume`.
    public let volume = Setting<Int>(
        "volume", .integer(SpeechRanges.volume), default: 100, flag: SettingFlag("--volume", value: "volume"),
        reload: .applied,
        doc: "The default volume (100 is the voice's own).")

    /// `punctuation`.
    public let punctuation = Setting<Punctuation>(
        "punctuation", .word(Punctuation.self), default: .none, flag: SettingFlag("--punctuation", value: "level"),
        reload: .applied,
        doc: "Which punctuation is spoken by default.")

    /// `clients`.
    public let clients = Setting<[ClientSettingsEntry]>(
        "clients", ClientSettingsEntry.settingType, default: [], environment: .notRead, reload: .applied,
        doc:
            "Settings per client: a list of entries, each a `match` pattern over the client's name and any of `voice`, "
            + "`rate`, `pitch`, `volume`, `punctuation`, `language` and `mute` (\"Settings per client\" below).",
        details:
            "The name matched is SSIP's whole `CLIENT_NAME` (`user:application:component`: Orca sends "
            + "`<user>:Orca:<component>`, or `unknown:Orca:...` without `USER`, so `*:Orca:*` catches it), the native "
            + "protocol's `hello` name (`pid:N` without one) and `atspi:<app>` for toolkit announcements and `spiel:<process>` for "
            + "a Spiel caller. Patterns are globs (`*`, `?`, `[...]`) over "
            + "the whole name, matched without regard to case (speech-dispatcher's `BeginClient` matches case-sensitively, "
            + "so its sample `\"emacs:*\"` matches nothing). The first matching entry applies; `announcectl status` shows "
            + "which one each client matched. What a message asks for itself wins, then the client's own `SET` (SSIP), then "
            + "the entry, then the defaults (which the native `set` changes). `mute: true` ends its clients' posts `muted`. "
            + "A voice no engine has stops the start (a reload keeps the old entries).")

    /// `earcons`.
    public let earcons = Setting<Bool>(
        "earcons", .boolean, default: true, reload: .applied,
        doc: "Play the short screen-change sound before `screen-changed` speech.")

    /// `toolkit_announcements`.
    public let toolkitAnnouncements = Setting<ToolkitAnnouncementsSetting>(
        "toolkit_announcements", .word(ToolkitAnnouncementsSetting.self), default: .auto, reload: .needsRestart,
        doc: "Speak the announcements apps make through the desktop's accessibility bus (AT-SPI `object:announcement`: "
            + "GTK, Qt, ATK apps): `auto`, `on` or `off`.",
        details:
            "`auto` speaks them only while no screen reader runs (the desktop's `org.a11y.Status.ScreenReaderEnabled` is "
            + "false and no process named `orca` runs), so that they are not spoken twice. An assertive announcement "
            + "interrupts like `announce`; a polite one, or one without a politeness, waits in line. Each application is "
            + "its own client (`atspi:NAME` in `speech` events and `announcectl monitor`) with a connection's limits "
            + "(`max_pending_per_client`, `max_text_chars`). Without a session bus or an accessibility bus the daemon logs "
            + "one line and serves its sockets as usual.")

    /// `toolkit_announcements_ignore`.
    public let toolkitAnnouncementsIgnore = Setting<[String]>(
        "toolkit_announcements_ignore",
        .list(
            of: .text("must be an application name, not empty"),
            requirement: "must be a list of application names such as [\"firefox\"]"),
        default: [], reload: .needsRestart,
        doc: "Applications whose toolkit announcements are never spoken, by the name `announcectl monitor` shows "
            + "after `atspi:`.",
        details: "`ANNOUNCED_TOOLKIT_ANNOUNCEMENTS_IGNORE=firefox,evolution`.")

    /// `speech_provider`.
    public let speechProvider = Setting<SpeechProviderSetting>(
        "speech_provider", .word(SpeechProviderSetting.self), default: .on, reload: .needsRestart,
        doc:
            "Offer announced's voices to Spiel's clients (Orca 46+, WebKitGTK, the Speech portal) as a speech provider "
            + "on the session bus, `org.announced.Speech.Provider`: `on` or `off`.",
        details:
            "Spiel's requests do not enter the announcement queue; their streams are synthesized by the engines' warm "
            + "helpers, with the speech cache, within `max_text_chars` and `max_pending_per_client` per bus client, and "
            + "at most 4 streams at once for all clients together (a stream that overlaps another request takes a spare "
            + "helper, with its own copy of the voice); a request beyond either gets D-Bus `LimitsExceeded`. "
            + "`off` leaves the name to another program. Without a session bus the daemon logs one line and serves its "
            + "sockets as usual.")

    /// `duck`.
    public let duck = Setting<DuckSetting>(
        "duck", DuckSetting.settingType, default: .off, sample: .level(decibels: -12),
        flag: SettingFlag("--duck", value: "off|dB"),
        reload: .needsRestart,
        doc:
            "Lower other applications' playback (music, videos) by this many decibels while announced speaks, e.g. -12; "
            + "needs the pulse output (PulseAudio or PipeWire).",
        details:
            "It is restored 0.5 s after the last announcement. Works through PulseAudio and PipeWire's pulse server (the "
            + "`pulse` output, or `auto` when a sound server answers); with another output it logs a warning and does nothing. A "
            + "stream whose volume you change meanwhile is left as you set it. A clean exit restores everything first; what was "
            + "lowered is also written to `ducked-streams.json` beside the socket (mode 0600) before it is lowered, so after a crash "
            + "the next start restores it (only streams still at the volume announced set). `--duck -12`, `ANNOUNCED_DUCK=-12`; "
            + "`-12dB` and `\"-12\"` are accepted too.")

    /// `history_size`.
    public let historySize = Setting<Int>(
        "history_size", .integer(0...1000), default: 50, reload: .applied,
        doc:
            "How many of the last announcements the daemon keeps for `announcectl history` and `repeat` (`0` keeps none).",
        details:
            "Kept in memory only, never written to disk, each with its time, client, voice, language and how it ended; a "
            + "text is kept up to its first \(HistoryEntry.textLimit) characters (`truncated` says when it was longer). "
            + "Native and toolkit announcements are kept, SSIP messages only with `history_ssip`, navigation speech and "
            + "Spiel streams never. A reload to a smaller size forgets the oldest entries at once; `0` forgets them all. "
            + "A client of another user (`allow_uids`) sees only its own user's entries.")

    /// `history_ssip`.
    public let historySSIP = Setting<Bool>(
        "history_ssip", .boolean, default: false, reload: .applied,
        doc: "Keep SSIP messages (Orca, spd-say) in the history too.",
        details:
            "Off by default: a screen reader's own speech is its business. A reload applies it to the messages that come "
            + "after it.")

    /// `max_line_bytes`.
    public let maxLineBytes = Setting<Int>(
        "max_line_bytes", .positive, default: LineSplitter.protocolMaxLineBytes, reload: .needsRestart,
        doc:
            "The longest request line (and SSIP line); a longer one gets `line-too-long` (SSIP `520`) and the connection is closed.",
        details: "The default holds a text of `max_text_chars` escaped.")

    /// `max_text_chars`.
    public let maxTextChars = Setting<Int>(
        "max_text_chars", .positive, default: DecodingLimits.protocolMaxTextChars, reload: .needsRestart,
        doc:
            "The most Unicode scalars one post (or SSIP message) may speak; a longer one gets `text-too-long` (SSIP `420`).",
        details: "A long text starts speaking at once: espeak-ng synthesizes it clause by clause as it plays.")

    /// `max_pending_per_client`.
    public let maxPendingPerClient = Setting<Int>(
        "max_pending_per_client", .positive, default: 256, reload: .needsRestart,
        doc: "The most posts one connection may have pending or speaking; more are `dropped` with `queue-full`.")

    /// `max_outbound_bytes`.
    public let maxOutboundBytes = Setting<Int>(
        "max_outbound_bytes", .positive, default: 1_048_576, reload: .needsRestart,
        doc: "The most unread bytes a client may leave before the daemon disconnects it.")

    /// `allow_uids`.
    public let allowUIDs = Setting<[UInt32]>(
        "allow_uids",
        SettingType<[Int]>.list(
            of: .integer(0...Int(UInt32.max - 1)),
            requirement: "must be a list of user ids (numbers from 0 to 4294967294) such as [1001, 1002]"
        ).map({ $0.map { UInt32($0) } }, back: { $0.map { Int($0) } }).described(summary: "array of integers"),
        default: [], reload: .needsRestart,
        doc: "Users besides the daemon's own who may connect.",
        details:
            "(Under the hardened systemd unit, `PrivateUsers=yes` makes other users' connections look like `nobody`: drop it "
            + "in a drop-in if you need this.) `ANNOUNCED_ALLOW_UIDS=1001,1002`.")

    /// `log_level`.
    public let logLevel = Setting<LogLevel>(
        "log_level", .word(LogLevel.self), default: .info, flag: SettingFlag("--log-level", value: "level"),
        reload: .needsRestart,
        doc: "The least severe log messages written.")

    /// `engine_idle_unload`.
    public let engineIdleUnload = Setting<Int>(
        "engine_idle_unload", .positive, default: 300, reload: .needsRestart,
        doc:
            "Seconds a Piper voice may go unused before its helper (`announced-piper`) is stopped, which unloads the voice's model "
            + "and gives its memory back.",
        details:
            "The next post in a Piper voice loads it again (a few seconds, while espeak-ng's posts speak on). espeak-ng's "
            + "helper is small and always kept.")

    /// `piper_threads`.
    public let piperThreads = Setting<Int>(
        "piper_threads", .positive, default: 2, reload: .needsRestart,
        doc:
            "The threads ONNX Runtime runs one Piper synthesis on (at most the machine's cores; a larger number is taken as that).",
        details:
            "A Piper voice synthesizes a whole sentence before its first sample, so this is most of the wait before a Piper "
            + "post is heard: on a 2-core machine, otherwise idle, two threads were heard in about half the time of one. A second "
            + "thread waits for a core whenever another program holds one, so on a machine whose cores are kept busy by other work "
            + "one thread is the steadier: set 1 ([Benchmarks/README.md](../Benchmarks/README.md), figures 13 and 14). Takes effect "
            + "when the Piper helper next starts (after `engine_idle_unload`, or a restart). `ANNOUNCED_PIPER_THREADS=1`."
    )

    /// `speech_cache`.
    public let speechCache = Setting<Int>(
        "speech_cache", .integer(0...4096), default: 8, reload: .needsRestart,
        doc: "MiB of Piper audio kept to play a phrase said again at once (`0` keeps none).",
        details:
            "Apps repeat phrases (\"Saved\", \"Download complete.\"): a Piper voice synthesizes a whole sentence before it "
            + "is heard, so a phrase said again with the same voice, text, rate, pitch, volume and punctuation is played from "
            + "this cache instead, with the same words, marks, pause and `spoken_chars`. 8 MiB holds about 95 s of audio at "
            + "22.05 kHz (some 150 short phrases); the least recently used go first, and a rendering larger than a quarter "
            + "of it is not kept. Installing a voice again or removing it drops its audio. espeak-ng speaks as fast as it "
            + "is asked and is not cached.")
}

extension SettingsTable {
    /// The entry for `key` as the file spells it, if there is one.
    static func entry(_ key: String) -> (any AnySetting)? {
        entries.first { $0.key == key }
    }

    /// The entry whose flag is `name`, if there is one.
    static func entry(flag name: String) -> (any AnySetting)? {
        entries.first { $0.flag?.name == name }
    }

    /// The top-level keys of the file (`audio` holds `output` and `device`).
    static let fileTopLevelKeys: [String] = {
        var keys: [String] = []
        for entry in entries {
            let top = String(entry.key.split(separator: ".")[0])
            if !keys.contains(top) { keys.append(top) }
        }
        return keys
    }()

    /// The keys a reload applies, in table order.
    public static var reloadedKeys: [String] {
        entries.filter { $0.reload == .applied }.map(\.key)
    }
}
