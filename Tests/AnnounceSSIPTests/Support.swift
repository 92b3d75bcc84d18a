// SPDX-License-Identifier: GPL-3.0-or-later
@testable import AnnounceCore
import AnnounceProtocol
@testable import AnnounceSSIP
@testable import AnnounceServer
import Glibc
import Logging
import NIOCore
import NIOEmbedded
import SSIPProtocol
import Synchronization

/// Runs dispatcher turns only when the test says so.
final class ManualTurns: Sendable {
    private let queue = Mutex<[@MainActor @Sendable () -> Void]>([])

    var scheduler: TurnScheduler {
        { work in self.queue.withLock { $0.append(work) } }
    }

    /// Runs scheduled turns, including the ones they schedule, until none is left.
    @MainActor func run() {
        while true {
            let work = queue.withLock { queue -> [@MainActor @Sendable () -> Void] in
                defer { queue.removeAll() }
                return queue
            }
            if work.isEmpty { return }
            for item in work { item() }
        }
    }
}

/// A speech backend that records what it is asked to speak and never finishes on its own: the
/// test plays the engine's part through the dispatcher's backend events.
final class SilentBackend: SpeechBackend {
    private let state = Mutex<[Utterance]>([])
    let outputDescription = "silent"
    let voices = [
        VoiceDescription(name: "en-us", languages: ["en-us", "en"]),
        VoiceDescription(name: "de", languages: ["de"]),
    ]

    func speak(_ utterance: Utterance) { state.withLock { $0.append(utterance) } }
    func abort(seq: UInt64) {}
    func pause() {}
    func resume() {}
    var spoken: [Utterance] { state.withLock { $0 } }
}

/// A server whose SSIP connections are `EmbeddedChannel`s, with a real dispatcher on manual turns.
@MainActor
struct SSIPHarness {
    let turns = ManualTurns()
    let backend = SilentBackend()
    let dispatcher: Dispatcher
    let server: AnnounceServer
    let frontEnd: SSIPFrontEnd

    init(maxLineBytes: Int = 65536, maxTextChars: Int = 8192, maxPendingPerClient: Int = 256, firstEventHold: TimeAmount = .milliseconds(10)) {
        var dispatcherConfiguration = DispatcherConfiguration()
        dispatcherConfiguration.maxPendingPerClient = maxPendingPerClient
        dispatcher = Dispatcher(configuration: dispatcherConfiguration, scheduleTurn: turns.scheduler)
        dispatcher.attach(backend)
        frontEnd = SSIPFrontEnd(voices: backend.voices, maxLineBytes: maxLineBytes, maxTextChars: maxTextChars, firstEventHold: firstEventHold)
        var configuration = ServerConfiguration(socketPath: "/nonexistent/announced.sock")
        configuration.maxLineBytes = maxLineBytes
        server = AnnounceServer(configuration: configuration, dispatcher: dispatcher, logger: Logger(label: "test"), ssip: frontEnd)
    }

    /// A connection from a peer of `uid` (the test's own by default), set up as the server's
    /// initializer does for the SSIP socket, then made active.
    func connect(uid: UInt32 = getuid()) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try server.configure(channel, peer: PeerCredentials(pid: 42, uid: uid, gid: 0), frontEnd: frontEnd)
        try channel.connect(to: SocketAddress(unixDomainSocketPath: "/peer")).wait()
        return channel
    }

    /// Runs the dispatcher's turns and the channel's loop until neither has work left.
    func settle(_ channel: EmbeddedChannel) {
        turns.run()
        channel.embeddedEventLoop.run()
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
    /// Writes `text` as one read from the client.
    func receive(_ text: String) throws {
        try writeInbound(allocator.buffer(string: text))
    }

    /// Every write the connection has made so far, one string each.
    func writes() throws -> [String] {
        var writes: [String] = []
        while var buffer = try readOutbound(as: ByteBuffer.self) {
            writes.append(buffer.readString(length: buffer.readableBytes) ?? "")
        }
        return writes.filter { !$0.isEmpty }
    }

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
        return (reply as? SSIPReply).map { $0.description.replacingOccurrences("\r\n", with: "|") } ?? "not an SSIP reply: \(reply)"
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
