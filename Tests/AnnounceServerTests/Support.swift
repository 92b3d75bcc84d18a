// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import AnnounceProtocol
@testable import AnnounceServer
import Glibc
import Logging
import NIOCore
import NIOEmbedded
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

/// A speech backend that records what it is asked to speak and never finishes on its own.
final class SilentBackend: SpeechBackend {
    private let state = Mutex<[Utterance]>([])
    let outputDescription = "silent"
    let voices: [VoiceDescription] = []

    func speak(_ utterance: Utterance) { state.withLock { $0.append(utterance) } }
    func abort(seq: UInt64) {}
    func pause() {}
    func resume() {}
    var spokenTexts: [String] { state.withLock { $0.map(\.text) } }
}

/// A server whose connections are `EmbeddedChannel`s, with a real dispatcher on manual turns.
@MainActor
struct ServerHarness {
    let turns = ManualTurns()
    let backend = SilentBackend()
    let dispatcher: Dispatcher
    let server: AnnounceServer
    let frontEnd: JSONLinesFrontEnd

    init(maxLineBytes: Int = 65536, allowUIDs: [UInt32] = []) {
        dispatcher = Dispatcher(scheduleTurn: turns.scheduler)
        dispatcher.attach(backend)
        var configuration = ServerConfiguration(socketPath: "/nonexistent/announced.sock")
        configuration.maxLineBytes = maxLineBytes
        configuration.allowUIDs = allowUIDs
        server = AnnounceServer(configuration: configuration, dispatcher: dispatcher, logger: Logger(label: "test"))
        frontEnd = JSONLinesFrontEnd(maxLineBytes: maxLineBytes)
    }

    /// A connection from a peer of `uid` (the test's own by default), set up as the server's
    /// initializer does, then made active.
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
}

extension EmbeddedChannel {
    /// Writes `text` as one read from the client.
    func receive(_ text: String) throws {
        try writeInbound(allocator.buffer(string: text))
    }

    /// Every line the connection has written so far.
    func writtenLines() throws -> [String] {
        var text = ""
        while var buffer = try readOutbound(as: ByteBuffer.self) {
            text += buffer.readString(length: buffer.readableBytes) ?? ""
        }
        return text.split(separator: "\n").map(String.init)
    }
}
