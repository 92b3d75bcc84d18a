import AnnounceProtocol
import POSIXThreads
import TestSupport

// SPDX-License-Identifier: GPL-3.0-or-later
@testable import AnnounceCore

/// A speech backend that only records what it is asked; the test plays the engine's part.
final class FakeBackend: SpeechBackend {
    private let state = LockedValue<(spoken: [Utterance], aborted: [UInt64])>(([], []))
    let outputDescription = "fake"
    let voices = [
        VoiceDescription(name: "en-us", languages: ["en-us", "en"]),
        VoiceDescription(name: "de", languages: ["de"]),
        VoiceDescription(name: "fr-fr", languages: ["fr-fr", "fr"]),
        VoiceDescription(name: "es", languages: ["es"]),
        VoiceDescription(name: "cmn", languages: ["cmn", "zh"]),
        // As espeak-ng lists British English: its language name is not its file name.
        VoiceDescription(
            name: "en", identifier: "gmw/en", languages: ["en-gb", "en"], gender: "male",
            title: "English (Great Britain)"),
    ]

    /// Voices "installed" later: ``rescanVoices()`` adds them, ``voices`` does not.
    let installed = LockedValue<[VoiceDescription]>([])
    /// How many times the dispatcher asked the backend to look for voices again.
    let rescans = LockedValue(0)
    func rescanVoices() -> [VoiceDescription] {
        rescans.withLock { $0 += 1 }
        return voices + installed.withLock { $0 }
    }

    func speak(_ utterance: Utterance) { state.withLock { $0.spoken.append(utterance) } }
    func abort(seq: UInt64) { state.withLock { $0.aborted.append(seq) } }
    func pause() { holds.withLock { $0.append(true) } }
    func resume() { holds.withLock { $0.append(false) } }

    /// The `pause` (true) and `resume` (false) calls, in order.
    let holds = LockedValue<[Bool]>([])
    /// The voices `prepare` was asked for, in order.
    let prepared = LockedValue<[String]>([])
    func prepare(voice identifier: String) { prepared.withLock { $0.append(identifier) } }
    /// `gmw/en` (British English) stands in for a Piper voice; the others' engine is not told.
    func engineName(forVoice identifier: String) -> String? { identifier == "gmw/en" ? "piper" : nil }
    var spoken: [Utterance] { state.withLock { $0.spoken } }
    var spokenTexts: [String] { spoken.map(\.text) }
    var aborted: [UInt64] { state.withLock { $0.aborted } }
}

/// Records the lines a connection would receive.
final class RecordingSink: EventSink {
    private let delivered = LockedValue<[ClientLine]>([])
    private let closedAfterCount = LockedValue<Int?>(nil)
    func deliver(_ lines: [ClientLine]) { delivered.withLock { $0.append(contentsOf: lines) } }
    func close() {
        let count = delivered.withLock { $0.count }
        closedAfterCount.withLock { $0 = count }
    }
    /// How many lines the connection had been sent when the dispatcher closed it; nil while open.
    var closedAfter: Int? { closedAfterCount.withLock { $0 } }
    /// Everything delivered, events and front-end answers, in order.
    var all: [ClientLine] { delivered.withLock { $0 } }
    var received: [Event] {
        all.compactMap { line in
            if case .event(let event) = line { return event }
            return nil
        }
    }
    var lines: [String] { received.map(\.json.jsonText) }
    func clear() { delivered.withLock { $0.removeAll() } }

    /// The terminal line of request `id`, if it came.
    func terminal(_ id: RequestID) -> Event? { received.first { $0.requestID == id && $0.isTerminal } }
    func lines(for id: RequestID) -> [Event] { received.filter { $0.requestID == id } }
}

/// A dispatcher with a fake engine, manual turns and two connected clients (1 and 2).
@MainActor
struct Harness {
    let turns = ManualTurns()
    let backend = FakeBackend()
    let dispatcher: Dispatcher
    let sinks = [RecordingSink(), RecordingSink(), RecordingSink()]

    init(configure: (inout DispatcherConfiguration) -> Void = { _ in }) {
        var configuration = DispatcherConfiguration()
        configure(&configuration)
        dispatcher = Dispatcher(configuration: configuration, scheduleTurn: turns.scheduler)
        dispatcher.attach(backend)
        for (index, sink) in sinks.enumerated() {
            dispatcher.register(ClientRegistration(id: ClientID(index + 1), pid: 100 + Int32(index), sink: sink))
        }
    }

    func sink(_ client: ClientID) -> RecordingSink { sinks[Int(client) - 1] }

    /// Sends request lines as one read of `client`, and runs the turns that follow.
    func send(_ jsonLines: String..., from client: ClientID = 1) {
        let batch = jsonLines.map { RequestLine.decode(line: Array($0.utf8)) }
        dispatcher.receiveForTest(batch, from: client)
        turns.run()
    }

    /// The engine reports the current utterance started.
    func engineStarts() {
        guard let seq = dispatcher.speaking?.seq else { return }
        dispatcher.transaction { $0.handle(.started(seq: seq)) }
        turns.run()
    }

    /// The engine reports the current utterance ended.
    func engineFinishes(_ outcome: SpeechOutcome = .completed) {
        guard let seq = dispatcher.speaking?.seq else { return }
        dispatcher.transaction { $0.handle(.finished(seq: seq, outcome: outcome)) }
        turns.run()
    }

    /// The engine honours the aborts it was asked for: the speaking post ends aborted.
    func engineAborts(spokenChars: Int = 0) { engineFinishes(.aborted(spokenChars: spokenChars)) }

    var speakingText: String? { dispatcher.speaking?.utterance.text }
}

extension Dispatcher {
    /// One read of `client`, as `submit` hands it to the main queue.
    func receiveForTest(_ lines: [Result<RequestLine, RequestError>], from client: ClientID) {
        transaction { $0.receive(lines.map(ClientInput.init(decoded:)), from: client) }
    }
}

/// A front-end's reply as a test makes it: the dispatcher carries it unopened.
struct TestReply: FrontEndReply {
    let text: String
    init(_ text: String) { self.text = text }
}
