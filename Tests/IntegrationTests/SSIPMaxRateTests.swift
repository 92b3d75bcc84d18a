// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import Glibc
import TestSupport
import Testing

/// `ssip_max_rate`: what SSIP's `RATE 100` stands for, as speech-dispatcher's `EspeakMaxRate`.
@Suite("SSIP: RATE 100 is ssip_max_rate", .onBlockingThreads)
struct SSIPMaxRateTests {
    /// A fresh daemon's recording of ``rateTestSentence`` sent over SSIP at `RATE rate`.
    private func ssipRendering(rate: Int, environment: [String: String] = [:]) throws -> [Int16] {
        let ssip = try SSIPDaemon(environment: environment)
        let client = try ssip.connectSSIP()
        #expect(client.command("SET self CLIENT_NAME \"unknown:rates:test\"")?.code == 208)
        #expect(client.command("SET self NOTIFICATION end on")?.code == 220)
        #expect(client.command("SET self RATE \(rate)")?.code == 203)
        let messageID = try #require(client.speak(rateTestSentence).messageID)
        try #require(client.waitForEvent(702, messageID: messageID) != nil)
        return try ssip.daemon.wavSamples(seq: messageID)
    }

    /// A fresh daemon's recording of ``rateTestSentence`` posted natively at `rate`.
    private func nativeRendering(rate: Int) throws -> [Int16] {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        client.send(announce(1, rateTestSentence, #","rate":\#(rate)"#))
        let finished = try #require(client.waitForTerminal(id: 1))
        #expect(finished["success"] == .bool(true), "\(finished.text)")
        return try daemon.wavSamples(seq: try #require(finished["seq"]?.intValue))
    }

    @Test(
        "RATE 100 with ssip_max_rate 900: the same PCM as a native post at 900, and at most 55 % as long as RATE 100 at the default (450)"
    )
    func raisedTop() throws {
        let raised = try ssipRendering(rate: 100, environment: ["ANNOUNCED_SSIP_MAX_RATE": "900"])
        let usual = try ssipRendering(rate: 100)
        let native900 = try nativeRendering(rate: 900)
        let native450 = try nativeRendering(rate: 450)
        print(
            "SSIP RATE 100: \(WAVFile.trimmed(raised).count) samples with ssip_max_rate 900, \(WAVFile.trimmed(usual).count) at the default"
        )
        #expect(!WAVFile.trimmed(raised).isEmpty)
        #expect(raised == native900, "RATE 100 with ssip_max_rate 900 is not the native rate 900")
        #expect(usual == native450, "RATE 100 by default is not the native rate 450 (speech-dispatcher's top)")
        #expect(Double(WAVFile.trimmed(raised).count) <= 0.55 * Double(WAVFile.trimmed(usual).count))
    }

    @Test("ssip_max_rate past the engine's limit stops the start with a message naming the key and the range")
    func pastTheLimit() throws {
        let limit = SpeechRanges.rate.upperBound
        let daemon = try DaemonProcess(
            environment: ["ANNOUNCED_SSIP_MAX_RATE": "\(limit + 1)"], waitForReady: false)
        #expect(daemon.waitForExit() == 1)
        let stderr = daemon.stderrText()
        #expect(stderr.contains("ANNOUNCED_SSIP_MAX_RATE"), "\(stderr)")
        #expect(stderr.contains("must be a whole number from 80 to \(limit)"), "\(stderr)")
    }

    @Test("SIGHUP applies a changed ssip_max_rate to an open SSIP connection's next message")
    func reloaded() throws {
        let file = try EditableConfigFile(#"{"ssip_max_rate": 900}"#)
        let ssip = try SSIPDaemon(arguments: ["--config", file.path])
        let client = try ssip.connectSSIP()
        #expect(client.command("SET self NOTIFICATION end on")?.code == 220)
        #expect(client.command("SET self RATE 100")?.code == 203)
        func spokenLength() throws -> Int {
            let messageID = try #require(client.speak(rateTestSentence).messageID)
            try #require(client.waitForEvent(702, messageID: messageID) != nil)
            return WAVFile.trimmed(try ssip.daemon.wavSamples(seq: messageID)).count
        }
        let fast = try spokenLength()
        try file.write(#"{"ssip_max_rate": 300}"#)
        kill(ssip.daemon.process.processIdentifier, SIGHUP)
        #expect(ssip.daemon.waitForStderr(containing: "SIGHUP: settings reloaded", timeout: 30))
        let slow = try spokenLength()
        print("SSIP RATE 100: \(fast) samples at ssip_max_rate 900, \(slow) after a reload to 300")
        #expect(Double(fast) < 0.5 * Double(slow))
        #expect(ssip.daemon.stop() == 0)
    }
}
