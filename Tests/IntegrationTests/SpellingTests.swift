// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import TestSupport
import Testing

@Suite("Daemon: spelled text is heard as its letters", .daemonTimeLimit, .onBlockingThreads)
struct SpellingTests {
    /// Seconds of audio in `samples` at espeak-ng's 22,050 Hz, without leading and trailing silence.
    private func seconds(_ samples: [Int16]) -> Double { Double(WAVFile.trimmed(samples).count) / 22_050 }

    @Test("`spell` speaks \"abcd\" as four letter names, as long as espeak-ng's own spelling, not the SSML markup")
    func spelledWordIsItsLetters() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        client.send(announce(1, "abcd", #","spell":true,"voice":"en-us","rate":175"#))
        try #require(client.waitForTerminal(id: 1)?["success"] == .bool(true))
        client.send(announce(2, "abcd", #","voice":"en-us","rate":175"#))
        try #require(client.waitForTerminal(id: 2)?["success"] == .bool(true))

        let spelled = seconds(try daemon.wavSamples(seq: 1))
        let word = seconds(try daemon.wavSamples(seq: 2))
        let letters = (["a", "b", "c", "d"].map { #"<say-as interpret-as="characters">\#($0)</say-as>"# }).joined(
            separator: " ")
        let reference = seconds(
            try espeakReference(text: "<speak>\(letters)</speak>", voice: "en-us", rate: 175, ssml: true))
        print("spell abcd: \(spelled) s; the word abcd: \(word) s; espeak-ng -m spelling the letters: \(reference) s")
        // Read as markup ("less than speak greater than ...") it would last many times longer.
        #expect(spelled < 2)
        // Four letter names take longer than one word...
        #expect(spelled > word * 1.3)
        // ...and as long as espeak-ng's own spelling of them (within 15%).
        #expect(abs(spelled - reference) < reference * 0.15)
    }
}
