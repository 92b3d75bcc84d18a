import AnnounceProtocol
import NIOCore
import NIOEmbedded
import SSIPProtocol
import TestSupport

// SPDX-License-Identifier: GPL-3.0-or-later
@testable import AnnounceCore
@testable import AnnounceSSIP
@testable import AnnounceServer

/// The server on embedded channels with the SSIP front end (and its two voices).
typealias SSIPHarness = EmbeddedServerHarness<SSIPFrontEnd>

extension SSIPHarness {
    /// A server whose SSIP front end and dispatcher have these limits, and whose first event
    /// after a reply is held `firstEventHold`.
    init(
        maxLineBytes: Int = 65536, maxTextChars: Int = 8192, maxPendingPerClient: Int = 256,
        firstEventHold: TimeAmount = .milliseconds(10)
    ) {
        var dispatcherConfiguration = DispatcherConfiguration()
        dispatcherConfiguration.maxPendingPerClient = maxPendingPerClient
        let frontEnd = SSIPFrontEnd(
            voices: SilentBackend.voices, maxLineBytes: maxLineBytes, maxTextChars: maxTextChars,
            firstEventHold: firstEventHold
        )
        var configuration = ServerConfiguration(socketPath: "/nonexistent/announced.sock")
        configuration.maxLineBytes = maxLineBytes
        self.init(dispatcher: dispatcherConfiguration, server: configuration, frontEnd: frontEnd, ssip: frontEnd) {
            server, channel, uid, frontEnd in
            try server.configure(channel, peer: PeerCredentials(pid: 42, uid: uid, gid: 0), frontEnd: frontEnd)
        }
    }

    /// The engine reports the speaking message started.
    func engineStarts() {
        guard let seq = dispatcher.speaking?.seq else { return }
        dispatcher.backendEventHandler(.started(seq: seq))
    }

    /// The engine reports the speaking message ended.
    func engineFinishes(_ outcome: SpeechOutcome = .completed) {
        guard let seq = dispatcher.speaking?.seq else { return }
        dispatcher.backendEventHandler(.finished(seq: seq, outcome: outcome))
    }
}

extension EmbeddedChannel {
    /// Every line the connection has written so far, without CR LF.
    func writtenLines() throws -> [String] {
        try writes().joined().split(separator: "\r\n").map(String.init)
    }
}

/// A decoder of a front-end, fed lines as one read each.
struct DecoderProbe {
    var decoder: SSIPDecoder

    init(_ frontEnd: SSIPFrontEnd, client: ClientID = 1) {
        decoder = frontEnd.makeDecoder(for: client)
    }

    /// Decodes `text` as one read.
    mutating func read(_ text: String) -> DecodedInput {
        var buffer = ByteBuffer(string: text)
        return decoder.decode(&buffer)
    }

    /// Decodes each of `lines` (CR LF added) as one read and describes the inputs.
    mutating func send(_ lines: String...) -> [String] {
        read(lines.map { $0 + "\r\n" }.joined()).inputs.map(describe)
    }
}

/// A readable form of a decoded input, to compare with what a test expects.
func describe(_ input: ClientInput) -> String {
    switch input {
    case .answered(let reply):
        return (reply as? SSIPReply).map { $0.description.replacingOccurrences("\r\n", with: "|") }
            ?? "not an SSIP reply: \(reply)"
    case .message(let message):
        let sound = message.sound.map { " sound=\($0)" } ?? ""
        return "message \(message.id) \(message.priority.rawValue) \"\(message.text)\"\(sound)"
    case .queuedMessage(let message, let seq):
        return "queued message \(message.id) seq \(seq) \(message.priority.rawValue) \"\(message.text)\""
    case .control(let control, let scope):
        return "control \(control.rawValue) \(scope)"
    case .name(let name):
        return "name \(name)"
    case .request, .postOffMain, .invalid:
        return "json input"
    }
}

/// The message of a decoded input, if it is one.
func message(_ input: ClientInput?) -> MessagePost? {
    if case .message(let message)? = input { return message }
    return nil
}

/// The daemon's speech defaults as a test sets them.
let testDefaults = SpeechDefaults(voice: "en-us", rate: 175, pitch: 50, volume: 100, punctuation: .none)

extension String {
    /// `self` with every `target` replaced (Foundation-free).
    func replacingOccurrences(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
