// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import AnnounceProtocol
import AnnounceServer
import DesktopBus
import Foundation
import NIOCore
import Testing

@testable import AnnounceDaemon
@testable import AnnounceSSIP
@testable import SpeechSynthesis

/// The fake third engine (``FakeToneEngine``, added to the one list from the test) heard through
/// the two doors ``ThirdEngineTests`` leaves out: an SSIP session (the daemon's SSIP front end,
/// its decoder and encoder, on a real dispatcher and engine backend, below the socket) and a
/// toolkit announcement (the daemon's ``ToolkitAnnouncementClients``, what the bus front end
/// hands each AT-SPI announcement to, below the accessibility bus).
@Suite(.serialized)
struct ThirdEngineDoorsTests {
    /// An SSIP connection's writes as text, encoded by the front end's encoder as the server
    /// would write them; ended by a guard task after 90 s so a missing line fails the test
    /// instead of hanging it.
    final class SSIPWrites: EventSink, @unchecked Sendable {
        let writes: AsyncStream<String>
        private let continuation: AsyncStream<String>.Continuation
        private let encoder: SSIPEncoder

        init(_ encoder: SSIPEncoder) {
            self.encoder = encoder
            (writes, continuation) = AsyncStream.makeStream(of: String.self)
            Task { [continuation] in
                try? await Task.sleep(for: .seconds(90))
                continuation.finish()
            }
        }

        func deliver(_ lines: [ClientLine]) {
            var output = FrontEndOutput()
            encoder.encode(lines, into: &output)
            for write in output.writes { continuation.yield(String(decoding: write.bytes, as: UTF8.self)) }
        }

        func close() { continuation.finish() }
    }

    /// The SSIP transcript of `commands` on a fresh connection (client 1) of the daemon's SSIP
    /// front end, up to the first 702 or 703, and what the output played.
    static func ssipSession(_ commands: String) async throws -> (lines: [String], played: [Int16]) {
        let thread = try ThirdEngineTests.threadWithFakeEngine()
        defer { thread.stop {} }
        let dispatcher = await MainActor.run { Dispatcher() }
        let output = ThirdEngineTests.RecordingOutput()
        let backend = try EngineBackend(
            thread: thread, output: output, logger: TestAudio.logger, eventHandler: dispatcher.backendEventHandler)
        await dispatcher.inTurn { $0.attach(backend) }
        // As the daemon makes it (Daemon.frontDoors), with no hold before a message's first event.
        let frontEnd = SSIPFrontEnd(
            lookForVoices: { backend.voices }, lookForEngines: { backend.installedEngines() }, firstEventHold: .zero)
        var decoder = frontEnd.makeDecoder(for: 1)
        let sink = SSIPWrites(frontEnd.makeEncoder(for: 1))
        dispatcher.open(ClientRegistration(id: 1, pid: nil, sink: sink, protocolName: frontEnd.protocolName))
        var buffer = ByteBuffer(string: commands)
        dispatcher.submit(decoder.decode(&buffer).inputs, from: 1)
        var lines: [String] = []
        for await write in sink.writes {
            lines += write.split(separator: "\r\n").map(String.init)
            if lines.contains(where: { $0.hasPrefix("702 ") || $0.hasPrefix("703 ") }) { break }
        }
        return (lines, output.all)
    }

    @Test(
        "an SSIP client sets the fake engine's output module and voice, and its message plays the fake engine's tone"
    )
    func ssipOutputModulePlaysItsTone() async throws {
        let (lines, played) = try await Self.ssipSession(
            [
                "SET self NOTIFICATION all on", "LIST OUTPUT_MODULES", "SET self OUTPUT_MODULE \(FakeToneEngine.name)",
                "GET OUTPUT_MODULE", "LIST SYNTHESIS_VOICES", "SET self SYNTHESIS_VOICE fake-tone", "SPEAK", "Beep.",
                ".", "",
            ].joined(separator: "\r\n"))
        #expect(lines.contains("250-\(FakeToneEngine.name)"), "the engine's name is an output module: \(lines)")
        let afterList = try #require(lines.firstIndex(of: "250 OK MODULE LIST SENT"), "\(lines)")
        let seq = try #require(
            lines.first { $0.hasPrefix("225-") }.flatMap { UInt64($0.dropFirst(4)) }, "no 225 in \(lines)")
        #expect(
            Array(lines[(afterList + 1)...]) == [
                "216 OK OUTPUT MODULE SET", "251-fake-tone", "251 OK GET RETURNED", "249-fake-tone\tx-fake\tnone",
                "249 OK VOICE LIST SENT", "209 OK VOICE SET", "230 OK RECEIVING DATA", "225-\(seq)",
                "225 OK MESSAGE QUEUED", "701-\(seq)", "701-1", "701 BEGIN", "702-\(seq)", "702-1", "702 END",
            ])
        #expect(lines.first == "220 OK NOTIFICATION SET")
        #expect(played == FakeToneEngine.tone, "the fake engine's tone, sample for sample, and nothing else")
    }

    @Test("an SSIP client that sets only the fake engine's output module hears its tone, in the engine's first voice")
    func ssipModuleAlonePlaysItsTone() async throws {
        let (lines, played) = try await Self.ssipSession(
            "SET self NOTIFICATION all on\r\nSET self OUTPUT_MODULE FAKE-TONE\r\nSPEAK\r\nAny text.\r\n.\r\n")
        #expect(lines.contains("216 OK OUTPUT MODULE SET") && lines.last == "702 END", "\(lines)")
        #expect(played == FakeToneEngine.tone, "no espeak-ng audio: the module decides the engine")
    }

    @Test(
        "a toolkit announcement of an application whose `clients` entry names the fake engine's voice plays its tone"
    )
    func toolkitAnnouncementPlaysItsTone() async throws {
        let thread = try ThirdEngineTests.threadWithFakeEngine()
        defer { thread.stop {} }
        var configuration = DispatcherConfiguration()
        configuration.clientSettings = [ClientSettingsEntry(match: "atspi:Tone App", voice: FakeToneEngine.name)]
        let dispatcher = await MainActor.run { [configuration] in Dispatcher(configuration: configuration) }
        var recorder = EventRecorder()
        let output = ThirdEngineTests.RecordingOutput()
        let (toDispatcher, toRecorder) = (dispatcher.backendEventHandler, recorder.handler)
        let backend = try EngineBackend(
            thread: thread, output: output, logger: TestAudio.logger,
            eventHandler: {
                toDispatcher($0)
                toRecorder($0)
            })
        await dispatcher.inTurn { $0.attach(backend) }
        var clients = ToolkitAnnouncementClients(dispatcher: dispatcher, limits: DecodingLimits(), newClientID: { 7 })
        let refused = clients.post(
            ToolkitAnnouncement(text: "Saved.", politeness: .polite, application: "Tone App", sender: ":1.42"))
        #expect(refused == nil)
        let events = await recorder.events(through: {
            if case .finished = $0 { return true } else { return false }
        })
        guard case .finished(let seq, let outcome)? = events.last else {
            Issue.record("the announcement never finished: \(events)")
            return
        }
        #expect(outcome == .completed)
        #expect(events.contains(.started(seq: seq)))
        #expect(output.all == FakeToneEngine.tone, "the fake engine's tone, sample for sample, and nothing else")
    }
}
