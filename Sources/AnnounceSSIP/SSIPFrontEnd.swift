// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceCore
public import AnnounceProtocol
public import AnnounceServer
public import Logging
public import NIOCore
import SSIPProtocol

/// speech-dispatcher's protocol (SSIP) as a front-end of the server, so that spd-say,
/// python3-speechd, libspeechd programs and Orca speak through announced unchanged
/// (shared/ssip.md).
///
/// Each connection's ``SSIPDecoder`` turns its lines into the dispatcher's input: messages with
/// their priority, stop/cancel/pause/resume with their scope, and the replies it answers itself
/// (settings, lists, ids). A reply, or a message's `225`, with nothing ahead of it on its
/// connection is written straight from the event loop; otherwise it passes through the
/// dispatcher, so that it keeps its place behind the `225` of a message or a control's answer
/// owed before it. Its ``SSIPEncoder`` writes replies and the 7xx events the connection enabled.
public struct SSIPFrontEnd: FrontEnd {
    /// The longest line, in bytes (a data line of `SPEAK` too).
    public var maxLineBytes: Int
    /// The most Unicode scalars of one message.
    public var maxTextChars: Int
    /// How long a message's first event waits after its `225` reply (see ``SSIPEncoder``).
    public var firstEventHold: TimeAmount
    /// The daemon's voices.
    let voices: SSIPVoiceSource
    /// The open connections, for `SET all` and `SET <id>`.
    let connections = SSIPConnections()
    /// Where the front-end says what a client should know but SSIP cannot tell it (an output
    /// module announced does not have, once per connection).
    public var logger = Logger(label: "announced.ssip")

    /// Creates the front-end for `voices` and `installedEngines` (the engines that are there
    /// with voices or without, e.g. `piper` once its helper is installed), which never change.
    public init(
        voices: [VoiceDescription], installedEngines: [String] = [],
        maxLineBytes: Int = LineSplitter.protocolMaxLineBytes,
        maxTextChars: Int = DecodingLimits.protocolMaxTextChars,
        firstEventHold: TimeAmount = SSIPEncoder.defaultFirstEventHold
    ) {
        self.init(
            source: SSIPVoiceSource(fixed: voices, installedEngines: installedEngines), maxLineBytes: maxLineBytes,
            maxTextChars: maxTextChars, firstEventHold: firstEventHold
        )
    }

    /// Creates the front-end for the voices `lookForVoices` finds and the engines
    /// `lookForEngines` finds installed (with voices or without: `piper` once its helper is
    /// installed): both called now, and again by ``voicesChanged()``, never on a connection's
    /// event loop, which only reads what they found for `LIST OUTPUT_MODULES`,
    /// `LIST SYNTHESIS_VOICES` and `SET … OUTPUT_MODULE`.
    public init(
        lookForVoices: @escaping @Sendable () -> [VoiceDescription],
        lookForEngines: @escaping @Sendable () -> [String] = { [] },
        maxLineBytes: Int = LineSplitter.protocolMaxLineBytes,
        maxTextChars: Int = DecodingLimits.protocolMaxTextChars,
        firstEventHold: TimeAmount = SSIPEncoder.defaultFirstEventHold
    ) {
        self.init(
            source: SSIPVoiceSource(lookForVoices: lookForVoices, lookForEngines: lookForEngines),
            maxLineBytes: maxLineBytes,
            maxTextChars: maxTextChars, firstEventHold: firstEventHold
        )
    }

    private init(source: SSIPVoiceSource, maxLineBytes: Int, maxTextChars: Int, firstEventHold: TimeAmount) {
        self.voices = source
        self.maxLineBytes = maxLineBytes
        self.maxTextChars = maxTextChars
        self.firstEventHold = firstEventHold
    }

    /// The daemon's voices changed (a Piper voice was installed or removed): looks for the voices
    /// and engines again, on the calling thread, for the connections to list from now on.
    public func voicesChanged() {
        voices.refresh()
    }

    /// `ssip`.
    public var protocolName: String { "ssip" }

    /// A decoder for a new connection; its SSIP client id is its connection number.
    public func makeDecoder(for client: ClientID) -> SSIPDecoder {
        let connection = connections.connection(
            for: client, maxCharacters: maxTextChars, defaultOutputModule: voices.current.defaultModule ?? "")
        return SSIPDecoder(connection: connection, frontEnd: self)
    }

    /// The encoder for a new connection.
    public func makeEncoder(for client: ClientID) -> SSIPEncoder {
        SSIPEncoder(
            connection: connections.connection(
                for: client, maxCharacters: maxTextChars, defaultOutputModule: voices.current.defaultModule ?? ""),
            firstEventHold: firstEventHold
        )
    }

    /// `300 ERR …` with `message`: libspeechd and python3-speechd fail their first command with it.
    public func refusal(_ message: String) -> [UInt8] {
        SSIPReply(300, "ERR " + message.uppercased()).bytes
    }
}
