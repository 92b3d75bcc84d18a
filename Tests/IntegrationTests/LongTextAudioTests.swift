// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import TestSupport
import Testing

/// Samples from the first to the last one above the recorder's threshold.
private func audibleSpan(_ samples: [Int16]) -> Int {
    guard let first = samples.firstIndex(where: { abs(Int($0)) > MonitorRecorder.audibleThreshold }),
        let last = samples.lastIndex(where: { abs(Int($0)) > MonitorRecorder.audibleThreshold })
    else { return 0 }
    return last - first + 1
}

/// Milliseconds of `samples` at 22050 Hz.
private func ms(_ samples: Int) -> Int { samples * 1000 / 22_050 }

/// A long text heard at a PulseAudio null sink: where it was stopped is where `spoken_chars` says.
@Suite(
    "Long texts heard at a null sink", .daemonTimeLimit, .onBlockingThreads, .serialized,
    .enabled(if: HeadlessPulseAudio.canRecord, HeadlessPulseAudio.missingReason))
struct LongTextAudioTests {
    @Test(
        "a 300,000-character text stopped in its first seconds: spoken_chars lies where the audio at the sink stopped")
    func spokenCharsMatchTheAudio() throws {
        let server = try HeadlessPulseAudio()
        let recorder = try server.record()
        let daemon = try DaemonProcess(audio: "pulse", environment: server.clientEnvironment)
        try #require(recorder.waitUntilSinkSettles(), "the sink's monitor recorded nothing")
        let client = try daemon.connect()
        let text = LongText.plain(count: 300_000)
        let start = recorder.sampleCount
        client.send(announce(1, text, #","voice":"en-us","rate":175,"words":true"#))
        // Inside the first sentence, so no sentence's pause splits what is heard.
        try #require(
            client.waitFor(timeout: 30) {
                $0["id"] == .integer(1) && $0.event == "word" && ($0["offset"]?.integerValue ?? 0) >= 30
            } != nil)
        client.send(#"{"op":"stop","id":2}"#)
        let finished = try #require(client.waitForTerminal(id: 1))
        #expect(finished["reason"] == .string("cancelled"), "\(finished.text)")
        let spoken = Int(finished["spoken_chars"]?.integerValue ?? -1)
        #expect(
            spoken >= 30 && spoken < 68,
            "spoken_chars \(spoken): a word of the first sentence, not 0 and not the whole text")
        let played = try #require(recorder.waitForSilence(after: start), "no audio reached the sink's monitor")

        // What espeak-ng says for the text before the word spoken_chars points at, and through the
        // word after it: the audio heard lies between the two.
        let scalars = Array(text.unicodeScalars)
        func prefix(_ count: Int) -> String { String(String.UnicodeScalarView(scalars[..<min(count, scalars.count)])) }
        var end = spoken
        for _ in 0..<2 {
            while end < scalars.count, scalars[end] != " " { end += 1 }
            end += 1
        }
        let before = audibleSpan(try espeakReference(text: prefix(spoken), voice: "en-us", rate: 175))
        let through = audibleSpan(try espeakReference(text: prefix(end), voice: "en-us", rate: 175))
        print(
            "long text stopped at spoken_chars \(spoken): heard \(ms(played.audible)) ms; espeak-ng before that word \(ms(before)) ms, through the next \(ms(through)) ms"
        )
        let slack = 22_050 / 5
        #expect(
            played.audible >= before - slack,
            "heard \(ms(played.audible)) ms, less than the \(ms(before)) ms before the word")
        #expect(
            played.audible <= through + slack,
            "heard \(ms(played.audible)) ms, more than the \(ms(through)) ms through the next word")
        #expect(daemon.stop() == 0)
    }
}
