// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import Foundation

@testable import SpeechSynthesis

/// The first synthesis of the process, through a WAV output, recorded for the CLI comparison.
///
/// espeak-ng's first synthesis after initialization is the one that matches the command-line
/// tool sample for sample, and the suites share one speech thread (`TestAudio.speech`) and so one
/// espeak-ng helper; so every test that speaks awaits this first, whatever order the tests run in.
struct FirstSynthesis: Sendable {
    static let text = "Hello world, this is the announcement daemon speaking."
    static let seq: UInt64 = 1

    let events: [SpeechBackendEvent]
    let wavData: Data
    let wavPath: String

    /// Runs once per process.
    static let shared: Task<FirstSynthesis, any Error> = Task {
        let directory = TestAudio.temporaryDirectory()
        let output = try WAVAudioOutput(directory: directory)
        var recorder = EventRecorder()
        let engine = try EngineBackend(
            thread: TestAudio.speech, output: output, logger: TestAudio.logger, eventHandler: recorder.handler)
        engine.speak(Utterance(seq: seq, text: text, voice: "en-us", rate: 175))
        let events = await recorder.events(untilFinished: seq)
        let path = output.path(forSeq: seq)
        let data = (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
        return FirstSynthesis(events: events, wavData: data, wavPath: path)
    }

    /// Waits until the first synthesis is done; call before speaking in any test.
    @discardableResult
    static func done() async throws -> FirstSynthesis {
        try await shared.value
    }
}
