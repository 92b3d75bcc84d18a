// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import TestSupport
import Testing

/// Debian's python3-speechd against the daemon's SSIP socket: what a Python application (and Orca,
/// which speaks through it) sees. Every message's callbacks are checked against the events that
/// came on the wire, so an event python3-speechd dropped (because it came before the message's
/// callback was registered, shared/ssip.md §5) shows up as a difference.
@Suite("SSIP: python3-speechd's SSIPClient against the daemon", .daemonTimeLimit, .onBlockingThreads)
struct SSIPPythonClientTests {
    @Test("queued messages: BEGIN then END for each, exactly once, every event on the wire reaches its callback")
    func beginAndEndPerMessage() throws {
        let ssip = try SSIPDaemon()
        let driver = try SpeechdDriver(ssip)
        try driver.connect()
        try driver.call("set_priority", .string("message"))
        let tags = ["one", "two", "three"]
        var ids: [String: Int] = [:]
        for tag in tags { ids[tag] = try driver.speak("Message \(tag).", tag: tag) }
        for tag in tags {
            #expect(driver.waitForTerminalCallback(tag: tag) == "end", "\(tag): \(driver.callbacks(tag: tag))")
        }
        #expect(Set(ids.values).count == 3, "distinct message ids: \(ids)")
        for tag in tags {
            #expect(driver.callbacks(tag: tag) == ["begin", "end"])
            #expect(driver.wireEvents(messageID: ids[tag]!) == ["begin", "end"])
        }
        #expect(driver.finish() == 0, "\(driver.stderrText)")
    }

    @Test(
        "a connection that never sets a priority speaks at message: speak() twice, both heard to the end (701 and 702 each, no 703)"
    )
    func defaultPriorityQueuesBoth() throws {
        let ssip = try SSIPDaemon()
        let driver = try SpeechdDriver(ssip)
        try driver.connect()
        let first = try driver.speak(interruptibleText, tag: "first")
        let second = try driver.speak("The second message.", tag: "second")
        #expect(driver.waitForTerminalCallback(tag: "first") == "end", "\(driver.callbacks(tag: "first"))")
        #expect(driver.waitForTerminalCallback(tag: "second") == "end", "\(driver.callbacks(tag: "second"))")
        #expect(driver.wireEvents(messageID: first) == ["begin", "end"])
        #expect(driver.wireEvents(messageID: second) == ["begin", "end"])
    }

    @Test(
        "priority text: each newer text cancels the earlier ones; one END or CANCEL per message, none lost by the client"
    )
    func textSupersedesText() throws {
        let ssip = try SSIPDaemon()
        let driver = try SpeechdDriver(ssip)
        try driver.connect()
        try driver.call("set_priority", .string("text"))
        let tags = ["first", "second", "third"]
        var ids: [String: Int] = [:]
        ids["first"] = try driver.speak(interruptibleText, tag: "first")
        try #require(driver.waitForCallback("begin", tag: "first") != nil)
        ids["second"] = try driver.speak(interruptibleText, tag: "second")
        ids["third"] = try driver.speak("The newest text.", tag: "third")
        #expect(driver.waitForTerminalCallback(tag: "first") == "cancel")
        #expect(driver.waitForTerminalCallback(tag: "second") == "cancel")
        #expect(driver.waitForTerminalCallback(tag: "third") == "end")
        // Anything still to come about these messages would come before a later message ends.
        try driver.call("set_priority", .string("message"))
        try driver.speak("Done.", tag: "sync")
        #expect(driver.waitForTerminalCallback(tag: "sync") == "end")
        #expect(driver.callbacks(tag: "first") == ["begin", "cancel"])
        #expect(driver.callbacks(tag: "third") == ["begin", "end"])
        for tag in tags {
            let callbacks = driver.callbacks(tag: tag)
            #expect(callbacks.filter { $0 == "end" || $0 == "cancel" }.count == 1, "\(tag): \(callbacks)")
            #expect(callbacks == driver.wireEvents(messageID: ids[tag]!), "\(tag): the client dropped an event")
        }
    }

    @Test("SSML with marks: INDEX_MARK callbacks carry the mark names in order, between BEGIN and END")
    func indexMarks() throws {
        let ssip = try SSIPDaemon()
        let driver = try SpeechdDriver(ssip)
        try driver.connect()
        try driver.call("set_data_mode", .string("ssml"))
        let id = try driver.speak(
            #"<speak><mark name="m1"/>One <mark name="m2"/>two <mark name="third mark"/>three.</speak>"#, tag: "marks")
        #expect(driver.waitForTerminalCallback(tag: "marks") == "end")
        let expected = ["begin", "index_marks:m1", "index_marks:m2", "index_marks:third mark", "end"]
        #expect(driver.callbacks(tag: "marks") == expected)
        #expect(driver.wireEvents(messageID: id) == expected)
    }

    /// The text the pause test speaks: long enough to pause in its middle, a mark there (inside
    /// the sentence: espeak-ng 1.51 reports no mark placed right after a sentence's full stop).
    private static let pausedText =
        #"<speak>The quarterly report is ready and <mark name="middle"/>it covers sales, returns and the new stores in the north.</speak>"#

    /// A fresh daemon's first message `pausedText` through python3-speechd, paused at its mark
    /// when `pausing`; its callbacks and its recorded samples.
    private func speakPausedText(pausing: Bool) throws -> (callbacks: [String], samples: [Int16]) {
        let ssip = try SSIPDaemon()
        let driver = try SpeechdDriver(ssip)
        try driver.connect()
        try driver.call("set_data_mode", .string("ssml"))
        let id = try driver.speak(Self.pausedText, tag: "long")
        if pausing {
            try #require(driver.waitForCallback("index_marks", tag: "long") != nil, "\(driver.lines.map(\.text))")
            try driver.call("pause")
            try #require(driver.waitForCallback("pause", tag: "long") != nil)
            try driver.call("resume")
            try #require(driver.waitForCallback("resume", tag: "long") != nil)
        }
        #expect(driver.waitForTerminalCallback(tag: "long") == "end")
        #expect(driver.callbacks(tag: "long") == driver.wireEvents(messageID: id))
        return (driver.callbacks(tag: "long"), try ssip.daemon.wavSamples(seq: id))
    }

    @Test(
        "pause() and resume() during a message: PAUSE and RESUME callbacks, then END; the audio is the unpaused rendering, sample for sample"
    )
    func pauseAndResume() throws {
        let paused = try speakPausedText(pausing: true)
        #expect(paused.callbacks == ["begin", "index_marks:middle", "pause", "resume", "end"])
        // The first message of a fresh helper renders the same samples every time
        // (notes/headless-audio.md): a second daemon speaks it without the pause.
        let plain = try speakPausedText(pausing: false)
        #expect(plain.callbacks == ["begin", "index_marks:middle", "end"])
        let pausedAudio = WAVFile.trimmed(paused.samples)
        let plainAudio = WAVFile.trimmed(plain.samples)
        #expect(!plainAudio.isEmpty)
        #expect(pausedAudio.count == plainAudio.count, "nothing lost or repeated at the pause")
        #expect(pausedAudio.elementsEqual(plainAudio), "the paused and resumed PCM differs from the unpaused rendering")
    }

    @Test(
        "char(), key() and sound_icon(): each message gets its BEGIN (when something plays) and exactly one END on the wire"
    )
    func charKeyAndSoundIcon() throws {
        let ssip = try SSIPDaemon()
        let driver = try SpeechdDriver(ssip)
        try driver.connect()
        try driver.call("set_priority", .string("message"))
        try driver.call("char", .string("x"))
        try driver.call("char", .string(" "))
        try driver.call("key", .string("shift_a"))
        try driver.call("sound_icon", .string("window"))
        try driver.call("sound_icon", .string("no-such-icon"))
        // Queued behind the five: everything about them has come once this one ends.
        let last = try driver.speak("Done.", tag: "sync")
        #expect(driver.waitForTerminalCallback(tag: "sync") == "end")
        let ids = Set(driver.lines.compactMap { $0["wire"] != nil ? $0["msg_id"]?.intValue : nil }).subtracting([last])
            .sorted()
        #expect(ids.count == 5, "one message id per char, key and icon: \(ids)")
        for (index, id) in ids.enumerated() {
            let events = driver.wireEvents(messageID: id)
            // The unknown icon plays nothing: at least its END comes.
            let expected = index == 4 ? [["begin", "end"], ["end"]] : [["begin", "end"]]
            #expect(expected.contains(events), "message \(id): \(events)")
        }
    }

    @Test("SSIP commands with a bad value fail with their 4xx code and the connection keeps working")
    func outOfRangeValues() throws {
        let ssip = try SSIPDaemon()
        let driver = try SpeechdDriver(ssip)
        try driver.connect()
        let rate = driver.failingRequest(
            "command", ["words": .array(["SET", "self", "RATE", "101"].map { .string($0) })])
        #expect(rate?["code"]?.intValue == 409, "\(rate?.text ?? "no reply")")
        let priority = driver.failingRequest(
            "command", ["words": .array(["SET", "self", "PRIORITY", "urgent"].map { .string($0) })])
        #expect(priority?["code"]?.intValue == 408, "\(priority?.text ?? "no reply")")
        #expect(try driver.call("get_rate") == .string("0"))
        try driver.speak("Still here.", tag: "after")
        #expect(driver.waitForTerminalCallback(tag: "after") == "end")
    }
}

@Suite("SSIP: python3-speechd's settings, voices and lists", .daemonTimeLimit, .onBlockingThreads)
struct SSIPPythonSettingsTests {
    @Test("set_rate, set_pitch, set_volume, set_language, set_punctuation read back through GET")
    func settingsRoundTrip() throws {
        let ssip = try SSIPDaemon()
        let driver = try SpeechdDriver(ssip)
        try driver.connect()
        // A new connection's values first (speech-dispatcher's defaults for its clients).
        #expect(try driver.call("get_rate") == .string("0"))
        #expect(try driver.call("get_pitch") == .string("0"))
        #expect(try driver.call("get_punctuation") == .string("none"))
        try driver.call("set_rate", .integer(37))
        try driver.call("set_pitch", .integer(-20))
        try driver.call("set_volume", .integer(-55))
        try driver.call("set_language", .string("de"))
        try driver.call("set_punctuation", .string("most"))
        #expect(try driver.call("get_rate") == .string("37"))
        #expect(try driver.call("get_pitch") == .string("-20"))
        #expect(try driver.call("get_volume") == .string("-55"))
        #expect(try driver.call("get_language") == .string("de"))
        #expect(try driver.call("get_punctuation") == .string("most"))
        #expect(try driver.call("get_output_module") == .string("espeak-ng"))
        // Another connection's settings are its own.
        try driver.connect("b")
        #expect(try driver.call("get_rate", client: "b") == .string("0"))
        // SET all reaches every connection.
        try driver.call("set_rate", client: "b", .integer(-10), .string("all"))
        #expect(try driver.call("get_rate") == .string("-10"))
        #expect(try driver.call("get_rate", client: "b") == .string("-10"))
    }

    @Test(
        "list_synthesis_voices: espeak-ng's voices as (name, language, variant), English among them; list_output_modules names espeak-ng and piper"
    )
    func lists() throws {
        let ssip = try SSIPDaemon()
        let driver = try SpeechdDriver(ssip)
        try driver.connect()
        let voices = try #require(try driver.call("list_synthesis_voices")?.arrayValue)
        #expect(!voices.isEmpty)
        let triples = voices.compactMap { $0.arrayValue?.compactMap(\.stringValue) }
        #expect(
            triples.count == voices.count && triples.allSatisfy { $0.count == 3 && !$0[0].isEmpty && !$0[1].isEmpty },
            "\(voices.prefix(5))")
        #expect(triples.contains { $0[1] == "en" || $0[1].hasPrefix("en-") }, "an English voice")
        let modules = try #require(try driver.call("list_output_modules")?.arrayValue)
        // piper: its helper, announced-piper, is built beside the tests' daemon.
        #expect(modules == [.string("espeak-ng"), .string("piper")])
        let symbolic = try driver.command("LIST", "VOICES")
        #expect(symbolic.code == 249)
        #expect(
            symbolic.data == ["MALE1", "MALE2", "MALE3", "FEMALE1", "FEMALE2", "FEMALE3", "CHILD_MALE", "CHILD_FEMALE"])
    }

    @Test("set_voice (VOICE_TYPE) and set_synthesis_voice are accepted, read back, and the next message is spoken")
    func voices() throws {
        let ssip = try SSIPDaemon()
        let driver = try SpeechdDriver(ssip)
        try driver.connect()
        try driver.call("set_voice", .string("female2"))
        #expect(try driver.command("GET", "VOICE_TYPE").data == ["FEMALE2"])
        try driver.speak("A female voice.", tag: "variant")
        #expect(driver.waitForTerminalCallback(tag: "variant") == "end")

        let voices = try #require(try driver.call("list_synthesis_voices")?.arrayValue)
        let english = try #require(
            voices.compactMap { $0.arrayValue?.compactMap(\.stringValue) }.first { $0[1].hasPrefix("en") })
        try driver.call("set_synthesis_voice", .string(english[0]))
        try driver.speak("An English voice.", tag: "named")
        #expect(driver.waitForTerminalCallback(tag: "named") == "end")
        // As speech-dispatcher does, an unknown name is accepted (209) and falls back.
        try driver.call("set_synthesis_voice", .string("no such voice"))
        try driver.speak("The fallback voice.", tag: "fallback")
        #expect(driver.waitForTerminalCallback(tag: "fallback") == "end")
    }
}
