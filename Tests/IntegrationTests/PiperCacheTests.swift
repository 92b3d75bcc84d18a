// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import TestSupport
import Testing

/// The test voice's option fragment for `announce`.
private let joe = #","voice":"en_us-joe-medium""#

/// Issue 32, item 4: a phrase said again in a Piper voice is played from the speech cache
/// (`speech_cache`), through the real daemon, the real Piper helper and the test voice. Whether a
/// post reached the helper is read in the daemon's debug log: a cached post is logged
/// `speaking from the speech cache` and never asks the engine for its helper; a rendering the
/// helper sent complete is logged `speech cache stored`, with the cache's bytes, entries and limit.
@Suite(
    "Daemon: a Piper phrase said again is played from the speech cache", .onBlockingThreads,
    .enabled(
        if: FetchedPiper.isFetched,
        "the Piper engine or its test voice is not fetched: run scripts/fetch-piper-engine.sh")
)
struct PiperCacheTests {
    /// The daemon's log lines that contain `message`.
    private func logLines(_ daemon: DaemonProcess, _ message: String) -> [Substring] {
        daemon.stderrSoFar().split(separator: "\n").filter { $0.contains(message) }
    }

    /// The seqs of the posts played from the cache.
    private func cachedSeqs(_ daemon: DaemonProcess) -> Set<Int> {
        Set(logLines(daemon, "speaking from the speech cache").compactMap { Self.value("seq", in: $0) })
    }

    /// The whole number after `name=` in a log line.
    private static func value(_ name: String, in line: Substring) -> Int? {
        guard let start = line.range(of: "\(name)=")?.upperBound else { return nil }
        return Int(line[start...].prefix { $0.isNumber })
    }

    /// Posts `text` as request `id` and waits for it to end; its terminal line, seq and word or mark events.
    private func speak(
        _ client: LineClient, id: Int, _ text: String, options: String = ""
    ) throws -> (finished: JSONValue, seq: Int, events: [String]) {
        client.send(announce(id, text, joe + options))
        let finished = try #require(client.waitForTerminal(id: id, timeout: 90))
        let lines = client.lines(id: id)
        let events = lines.filter { $0.event == "word" || $0.event == "mark" }.map {
            $0.event == "mark"
                ? "mark:\($0["name"]?.stringValue ?? "")"
                : "word:\($0["offset"]?.intValue ?? -1)+\($0["length"]?.intValue ?? -1)"
        }
        #expect(
            lines.map { $0.event ?? "" }.filter { ["queued", "started", "finished"].contains($0) } == [
                "queued", "started", "finished",
            ])
        return (finished, try #require(finished["seq"]?.intValue), events)
    }

    @Test(
        "\"Download complete.\" said again: not sent to the helper, its recording the uncached one sample for sample, the same words and marks; stopped from the cache, spoken_chars is the last word heard"
    )
    func repeatedPhraseIsTheSameAudio() throws {
        let daemon = try piperDaemon()
        let client = try daemon.connect()
        let ssml = "<speak>Download <mark name='m'/>complete. Your files are ready.</speak>"
        let options = #","ssml":true,"words":true"#
        let first = try speak(client, id: 1, ssml, options: options)
        let second = try speak(client, id: 2, ssml, options: options)
        #expect(
            first.finished["success"] == .bool(true) && second.finished["success"] == .bool(true),
            "\(second.finished.text)")
        let cached = cachedSeqs(daemon)
        #expect(!cached.contains(first.seq), "the first post is synthesized")
        #expect(cached.contains(second.seq), "the second post does not reach the helper: \(cached)")
        #expect(logLines(daemon, "speech cache stored").count == 1, "one rendering stored")

        let uncachedAudio = try daemon.wavSamples(seq: first.seq)
        let cachedAudio = try daemon.wavSamples(seq: second.seq)
        print(
            "Piper cache: uncached \(uncachedAudio.count) samples, cached \(cachedAudio.count); largest difference \(largestDifference(uncachedAudio, cachedAudio))"
        )
        #expect(cachedAudio.count == uncachedAudio.count)
        #expect(largestDifference(cachedAudio, uncachedAudio) <= renderingTolerance)
        #expect(peak(cachedAudio) > 1_000, "heard, not silence")
        #expect(second.events == first.events, "the same words and marks, in the same order")
        #expect(first.events.contains("mark:m"))

        // Stopped while it plays from the cache: cancelled, spoken_chars where the last word heard begins.
        client.send(announce(3, ssml, joe + options))
        _ = try #require(client.waitFor("started", id: 3, timeout: 90))
        for _ in 1...2 { _ = try #require(client.waitFor("word", id: 3)) }
        client.send(#"{"op":"stop","id":4}"#)
        let stopped = try #require(client.waitForTerminal(id: 3))
        let lastWord = client.lines(id: 3).last { $0.event == "word" }?["offset"]?.intValue ?? -1
        #expect(cachedSeqs(daemon).contains(try #require(stopped["seq"]?.intValue)))
        #expect(stopped["reason"] == .string("cancelled"), "\(stopped.text)")
        #expect(stopped["spoken_chars"]?.intValue == lastWord && lastWord > 0, "\(stopped.text)")
        #expect(daemon.stop() == 0)
    }

    @Test("a post stopped before its rendering ended is not stored: said again, it goes to the helper")
    func abortedRenderingIsNotStored() throws {
        let daemon = try piperDaemon()
        let client = try daemon.connect()
        let text = "The quarterly report is ready. It covers sales, returns and the new stores in the north."
        client.send(announce(1, text, joe + #","words":true"#))
        _ = try #require(client.waitFor("word", id: 1, timeout: 90))
        client.send(#"{"op":"stop","id":2}"#)
        #expect(client.waitForTerminal(id: 1)?["reason"] == .string("cancelled"))
        let again = try speak(client, id: 3, text)
        #expect(again.finished["success"] == .bool(true))
        #expect(!cachedSeqs(daemon).contains(again.seq), "nothing of the stopped post was kept")
        #expect(daemon.stop() == 0)
    }

    @Test(
        "speech_cache 1 (MiB): many distinct phrases keep the cache within 1 MiB, and the least recently used is synthesized again"
    )
    func cacheStaysWithinItsLimit() throws {
        let daemon = try piperDaemon(["ANNOUNCED_SPEECH_CACHE": "1"])
        let client = try daemon.connect()
        let phrases = (1...6).map {
            "Message number \($0) has arrived in your inbox, with two attachments and a calendar invitation."
        }
        for (index, phrase) in phrases.enumerated() {
            #expect(try speak(client, id: index + 1, phrase).finished["success"] == .bool(true))
        }
        let stored = logLines(daemon, "speech cache stored")
        let sizes = stored.compactMap { Self.value("bytes", in: $0) }
        let entries = stored.compactMap { Self.value("entries", in: $0) }
        print("Piper cache at 1 MiB: bytes after each store \(sizes), entries \(entries)")
        #expect(sizes.count == phrases.count, "each rendering was stored")
        #expect(stored.allSatisfy { Self.value("limit", in: $0) == 1 << 20 })
        #expect(sizes.allSatisfy { $0 <= 1 << 20 }, "never beyond its limit")
        #expect((entries.last ?? 0) < phrases.count, "the oldest were dropped")
        let evicted = try speak(client, id: 100, phrases[0])
        #expect(!cachedSeqs(daemon).contains(evicted.seq), "the least recently used phrase is synthesized again")
        let kept = try speak(client, id: 101, phrases[phrases.count - 1])
        #expect(cachedSeqs(daemon).contains(kept.seq), "the most recent phrase is still kept")
        #expect(daemon.stop() == 0)
    }

    @Test(
        "the voice installed again (new files): its phrases are synthesized again once the catalog has seen the new files"
    )
    func reinstallingTheVoiceInvalidates() throws {
        let daemon = try piperDaemon()
        let client = try daemon.connect()
        _ = try speak(client, id: 1, "Download complete.")
        let cached = try speak(client, id: 2, "Download complete.")
        #expect(cachedSeqs(daemon).contains(cached.seq))
        // The install that `piperDaemon` waited for was itself a change of the voice's files:
        // the reinstall's line is the next one.
        let changesBefore = logLines(daemon, "piper voice files changed").count
        let loadsBefore = logLines(daemon, "piper voice loaded").count
        // Installed again as new files, the way `announcectl voices install` replaces a pair: new
        // copies renamed over the old names (a hard link again would be the same file).
        for file in ["en_US-joe-medium.onnx", "en_US-joe-medium.onnx.json"] {
            let target = daemon.voicesDirectory + "/" + file
            try FileManager.default.copyItem(atPath: FetchedPiper.voiceDirectory + "/" + file, toPath: target + ".new")
            #expect(rename(target + ".new", target) == 0)
        }
        #expect(
            daemon.waitForStderr(containing: "piper voice files changed", count: changesBefore + 1, timeout: 10),
            "the catalog saw the new files"
        )
        let after = try speak(client, id: 4, "Download complete.")
        #expect(after.finished["success"] == .bool(true))
        #expect(!cachedSeqs(daemon).contains(after.seq), "the reinstalled voice's phrase goes to the helper")
        #expect(
            logLines(daemon, "piper voice loaded").count > loadsBefore,
            "the helper loads the new files instead of speaking with the old model"
        )
        #expect(daemon.stop() == 0)
    }

    @Test("speech_cache 0: nothing is stored, every post goes to the helper")
    func zeroTurnsItOff() throws {
        let daemon = try piperDaemon(["ANNOUNCED_SPEECH_CACHE": "0"])
        let client = try daemon.connect()
        _ = try speak(client, id: 1, "Download complete.")
        let second = try speak(client, id: 2, "Download complete.")
        #expect(second.finished["success"] == .bool(true))
        #expect(cachedSeqs(daemon).isEmpty && logLines(daemon, "speech cache stored").isEmpty)
        #expect(daemon.stop() == 0)
    }
}
