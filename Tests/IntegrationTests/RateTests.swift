// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import Glibc
import TestSupport
import Testing

/// The sentence the rate tests render: sixteen words, long enough that a rate shows in its length
/// even at the top of the range.
let rateTestSentence = "The quick brown fox jumps over the lazy dog while the build finishes and the tests pass."

/// How many samples of speech `daemon` recorded for post `seq`: its WAV file without the silence
/// before and after.
private func spokenLength(_ daemon: DaemonProcess, seq: Int) throws -> Int {
    WAVFile.trimmed(try daemon.wavSamples(seq: seq)).count
}

/// Posts ``rateTestSentence`` at each of `rates` (with `options`) one after another and returns each
/// rendering's spoken length, in the order of `rates`.
private func spokenLengths(_ daemon: DaemonProcess, rates: [Int], options: String = "", timeout: Double = 30) throws
    -> [Int]
{
    let client = try daemon.connect()
    return try rates.enumerated().map { index, rate in
        client.send(announce(index + 1, rateTestSentence, options + #","rate":\#(rate)"#))
        let finished = try #require(client.waitForTerminal(id: index + 1, timeout: timeout))
        #expect(finished["success"] == .bool(true), "rate \(rate): \(finished.text)")
        return try spokenLength(daemon, seq: try #require(finished["seq"]?.intValue))
    }
}

/// Issue 39 §1: rates up to the engine's own limit, through the real daemon and its WAV output.
/// The native `rate` goes up to the highest rate espeak-ng renders faster (`SpeechRanges.rate`,
/// measured in Benchmarks/README.md); a Piper voice maps the same range onto its length scale.
@Suite("Daemon: rates up to the engine's own limit", .onBlockingThreads)
struct RateTests {
    /// The rates the espeak-ng test renders: the normal rate, speech-dispatcher's top, then
    /// doubling up to the limit.
    private static let espeakRates = [175, 450, 900, 1800, 3600, 7200, SpeechRanges.rate.upperBound]

    @Test("espeak-ng: the recording shortens at every step from 175 wpm up to the limit; 900 is at most 55 % of 450")
    func espeakDurationFallsUpToTheLimit() throws {
        let daemon = try DaemonProcess()
        let lengths = try spokenLengths(daemon, rates: Self.espeakRates)
        print("espeak-ng: samples of speech by rate: \(Array(zip(Self.espeakRates, lengths)))")
        for (slower, faster) in zip(lengths, lengths.dropFirst()) {
            #expect(faster < slower, "\(Array(zip(Self.espeakRates, lengths)))")
        }
        #expect(try #require(lengths.last) > 0, "the limit still speaks")
        let at450 = lengths[1]
        let at900 = lengths[2]
        #expect(Double(at900) <= 0.55 * Double(at450), "900 wpm: \(at900) samples, 450: \(at450)")
        #expect(daemon.stop() == 0)
    }

    @Test("the limit is espeak-ng's own: espeak-ng renders the sentence at the limit, and nothing one above it")
    func theLimitIsEspeakNGs() throws {
        let limit = SpeechRanges.rate.upperBound
        let atTheLimit = try WAVFile.espeakReference(text: rateTestSentence, rate: limit)
        let past = try WAVFile.espeakReference(text: rateTestSentence, rate: limit + 1)
        print("espeak-ng --stdout: \(atTheLimit.count) samples at \(limit) wpm, \(past.count) at \(limit + 1)")
        #expect(!WAVFile.trimmed(atTheLimit).isEmpty)
        #expect(WAVFile.trimmed(past).isEmpty, "espeak-ng renders past the limit: measure it again")
    }

    @Test(
        "Piper: the recording shortens at every step up to the voice's own limit, and is never longer past it, up to the top of the range",
        .enabled(
            if: FetchedPiper.isFetched,
            "the Piper engine or its test voice is not fetched: run scripts/fetch-piper-engine.sh")
    )
    func piperDurationFallsUpToItsLimit() throws {
        let daemon = try piperDaemon()
        // The rate divides the voice's length scale, but the model gives each sound at least one
        // frame: past the rate where every sound of the sentence is down to one (its own limit,
        // Benchmarks/README.md), a Piper voice speaks no faster.
        let rising = [175, 450, 900, 1200]
        let past = [2400, SpeechRanges.rate.upperBound]
        let lengths = try spokenLengths(
            daemon, rates: rising + past, options: #","voice":"en_us-joe-medium""#, timeout: 90)
        print("Piper: samples of speech by rate: \(Array(zip(rising + past, lengths)))")
        let below = lengths.prefix(rising.count)
        for (slower, faster) in zip(below, below.dropFirst()) {
            #expect(faster < slower, "\(Array(zip(rising + past, lengths)))")
        }
        let atItsLimit = try #require(below.last)
        for length in lengths.suffix(past.count) {
            #expect(length > 0 && length <= atItsLimit, "\(Array(zip(rising + past, lengths)))")
        }
        #expect(daemon.stop() == 0)
    }

    @Test("a rate past the limit: invalid on the native protocol (announce and set), naming the field and the range")
    func pastTheLimitIsInvalid() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        let limit = SpeechRanges.rate.upperBound
        let expected = "`rate` must be an integer from \(SpeechRanges.rate.lowerBound) to \(limit)"
        client.send(announce(1, "Too fast.", #","rate":\#(limit + 1)"#))
        let refused = try #require(client.waitFor { $0.event == "error" && $0["id"] == .integer(1) })
        #expect(refused["code"] == .string("invalid"))
        #expect(refused["message"]?.stringValue == expected, "\(refused.text)")
        client.send(#"{"op":"set","id":2,"rate":\#(limit + 1)}"#)
        let unset = try #require(client.waitFor { $0.event == "error" && $0["id"] == .integer(2) })
        #expect(unset["code"] == .string("invalid"))
        #expect(unset["message"]?.stringValue == expected, "\(unset.text)")
        #expect(try statusReply(client, id: 3)["rate"] == .integer(175), "the default is unchanged")
        // The limit itself is a rate like any other.
        client.send(#"{"op":"set","id":4,"rate":\#(limit)}"#)
        #expect(client.waitFor("ok", id: 4) != nil)
        #expect(try statusReply(client, id: 5)["rate"] == .integer(Int64(limit)))
        #expect(daemon.stop() == 0)
    }

    @Test(
        "announcectl refuses a rate past the limit before connecting: exit 2, naming the flag and the range",
        arguments: [["say", "Hi"], ["set"], ["char", "a"], ["key", "a"]])
    func announcectlRefusesPastTheLimit(command: [String]) throws {
        let limit = SpeechRanges.rate.upperBound
        let result = try AnnouncectlProcess.run(
            ["--socket", "/nonexistent/announced.sock"] + command + ["--rate", "\(limit + 1)"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(
            result.stderr.contains("--rate must be between \(SpeechRanges.rate.lowerBound) and \(limit)"),
            "\(result.stderr)")
    }
}
