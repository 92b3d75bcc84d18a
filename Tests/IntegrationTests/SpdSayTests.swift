// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import TestSupport
import Testing

/// One spd-say message spoken to its end: its sequence number, the `speech` lines about it and
/// its recorded audio.
struct SpdSayMessage {
    var seq: Int64
    var started: JSONValue?
    var finished: JSONValue
    var samples: [Int16]
    /// The audio without its leading and trailing silence.
    var audio: ArraySlice<Int16> { WAVFile.trimmed(samples) }
}

/// Runs `spd-say -w ARGUMENTS`, expects exit 0, and returns the message as `watcher` (subscribed
/// to `speech`) and the wav output saw it.
func spdSaySpoken(_ ssip: SSIPDaemon, _ watcher: LineClient, _ arguments: String...) throws -> SpdSayMessage {
    try spdSaySpoken(ssip, watcher, arguments)
}

/// Runs `spd-say -w ARGUMENTS` (see the variadic form).
func spdSaySpoken(_ ssip: SSIPDaemon, _ watcher: LineClient, _ arguments: [String]) throws -> SpdSayMessage {
    let result = try SSIPClientProcess.spdSay(ssip, ["-w"] + arguments)
    #expect(result.status == 0, "spd-say \(arguments): \(result.stdout)\(result.stderr)")
    #expect(result.stdout.isEmpty, "spd-say printed no complaint: \(result.stdout)")
    let finished = try #require(
        watcher.waitFor { $0.event == "speech" && $0["state"] == .string("finished") },
        "spd-say \(arguments): no finished")
    #expect(finished["success"] == .bool(true), "spd-say \(arguments): \(finished.text)")
    let seq = try #require(finished["seq"]?.integerValue)
    let started = watcher.received.first {
        $0.event == "speech" && $0["state"] == .string("started") && $0["seq"] == .integer(seq)
    }
    return SpdSayMessage(
        seq: seq, started: started, finished: finished, samples: try ssip.daemon.wavSamples(seq: Int(seq)))
}

/// The root mean square of `samples`.
func rms(_ samples: ArraySlice<Int16>) -> Double {
    guard !samples.isEmpty else { return 0 }
    return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
}

@Suite(
    "spd-say against the daemon's SSIP socket", .daemonTimeLimit, .onBlockingThreads,
    .enabled(if: SSIPClientProcess.spdSay != nil, SSIPClientProcess.spdSayMissing))
struct SpdSayTests {
    @Test("spd-say -w speaks the text under its CLIENT_NAME and exits only after the daemon's finished for it")
    func waitsForTheEnd() throws {
        let ssip = try SSIPDaemon()
        let daemon = ssip.daemon
        let watcher = try speechWatcher(daemon)
        let tool = try SSIPClientProcess.start(
            try #require(SSIPClientProcess.spdSay), ["-w", "Hello from spd-say, spoken to the end"], daemon: ssip)
        tool.finishInput()
        let started = try #require(watcher.waitFor { $0.event == "speech" && $0["state"] == .string("started") })
        #expect(
            started["client"]?.stringValue?.hasSuffix(":spd-say:main") == true,
            "libspeechd's CLIENT_NAME, unquoted: \(started.text)")
        #expect(started["text"] == .string("Hello from spd-say, spoken to the end"))
        let result = tool.finish()
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        // Asked after spd-say exited: if it had not waited for 702, the message would still be
        // speaking and status would come before finished.
        watcher.send(#"{"op":"status","id":2}"#)
        let status = try #require(watcher.waitFor("ok", id: 2))
        let finishedIndex = watcher.received.firstIndex { $0.event == "speech" && $0["state"] == .string("finished") }
        let statusIndex = watcher.received.firstIndex { $0 == status }
        #expect(
            finishedIndex != nil && statusIndex != nil && finishedIndex! < statusIndex!,
            "spd-say exited before the daemon's finished for its message: \(watcher.received.map(\.text))")
        let finished = try #require(finishedIndex.map { watcher.received[$0] })
        #expect(finished["success"] == .bool(true) && finished["seq"] == started["seq"])
        // The recording holds the whole sentence: exactly what espeak-ng says for it with the
        // daemon's default voice and rate (the first synthesis after start equals espeak-ng's).
        let audio = WAVFile.trimmed(try daemon.wavSamples(seq: Int(try #require(started["seq"]?.integerValue))))
        let reference = WAVFile.trimmed(
            try espeakReference(text: "Hello from spd-say, spoken to the end", voice: "en-us", rate: 175))
        #expect(audio.count == reference.count)
        #expect(audio.elementsEqual(reference), "the recorded audio is not espeak-ng's for the text")
    }

    @Test("spd-say without -w queues the message and exits 0; the daemon speaks it to the end")
    func sayWithoutWaiting() throws {
        let ssip = try SSIPDaemon(audio: "null")
        let daemon = ssip.daemon
        let watcher = try speechWatcher(daemon)
        let result = try SSIPClientProcess.spdSay(ssip, ["Queued and left"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let finished = try #require(watcher.waitFor { $0.event == "speech" && $0["state"] == .string("finished") })
        #expect(finished["success"] == .bool(true), "kept after spd-say closed its connection: \(finished.text)")
    }

    @Test(
        "spd-say -C from another process cancels the speaking and the waiting messages: a waiting spd-say -w exits 0, the other owner gets 703"
    )
    func cancelFromAnotherProcess() throws {
        let ssip = try SSIPDaemon(audio: "null")
        let daemon = ssip.daemon
        let watcher = try speechWatcher(daemon)
        let speaking = try SSIPClientProcess.start(
            try #require(SSIPClientProcess.spdSay), ["-w", "-P", "message", interruptibleText], daemon: ssip)
        speaking.finishInput()
        let started = try #require(watcher.waitFor { $0.event == "speech" && $0["state"] == .string("started") })
        let owner = try ssip.connectSSIP()
        #expect(owner.command("SET SELF NOTIFICATION all on")?.code == 220)
        #expect(owner.command("SET SELF PRIORITY message")?.code == 202)
        let queued = try #require(owner.speak("Queued behind it").messageID)
        let cancel = try SSIPClientProcess.spdSay(ssip, ["-C"])
        #expect(cancel.status == 0, "\(cancel.stdout)\(cancel.stderr)")
        #expect(owner.waitForTerminal(messageID: queued)?.code == 703)
        #expect(owner.events(messageID: queued).map(\.code) == [703], "cancelled before it began")
        let waited = speaking.finish()
        #expect(waited.status == 0, "spd-say -w ends on its message's 703: \(waited.stdout)\(waited.stderr)")
        var ended: [JSONValue] = []
        for _ in 0..<2 {
            ended.append(try #require(watcher.waitFor { $0.event == "speech" && $0["state"] == .string("finished") }))
        }
        #expect(ended.contains { $0["seq"] == started["seq"] }, "the speaking message ended: \(ended.map(\.text))")
        #expect(
            ended.allSatisfy { $0["success"] == .bool(false) && $0["reason"] == .string("cancelled") },
            "\(ended.map(\.text))")
    }

    @Test(
        "spd-say -S from another process stops the speaking message only: 703 for it, the queued one is spoken to 702")
    func stopFromAnotherProcess() throws {
        let ssip = try SSIPDaemon(audio: "null")
        let owner = try ssip.connectSSIP()
        #expect(owner.command("SET SELF NOTIFICATION all on")?.code == 220)
        #expect(owner.command("SET SELF PRIORITY message")?.code == 202)
        let speaking = try #require(owner.speak(interruptibleText).messageID)
        let queued = try #require(owner.speak("Queued behind it").messageID)
        #expect(owner.waitForEvent(701, messageID: speaking) != nil)
        let stop = try SSIPClientProcess.spdSay(ssip, ["-S"])
        #expect(stop.status == 0, "\(stop.stdout)\(stop.stderr)")
        #expect(owner.waitForTerminal(messageID: speaking)?.code == 703)
        #expect(owner.waitForTerminal(messageID: queued)?.code == 702)
        #expect(owner.events(messageID: speaking).map(\.code) == [701, 703])
        #expect(owner.events(messageID: queued).map(\.code) == [701, 702])
    }

    @Test(
        "spd-say -w with a notification while a message speaks exits 0 at once: the dropped notification gets its 703 (speech-dispatcher sends none, and spd-say -w waits forever)"
    )
    func droppedNotificationEndsTheWait() throws {
        let ssip = try SSIPDaemon(audio: "null")
        let daemon = ssip.daemon
        let watcher = try speechWatcher(daemon)
        let owner = try ssip.connectSSIP()
        #expect(owner.command("SET SELF NOTIFICATION all on")?.code == 220)
        #expect(owner.command("SET SELF PRIORITY message")?.code == 202)
        let speaking = try #require(owner.speak(interruptibleText).messageID)
        #expect(owner.waitForEvent(701, messageID: speaking) != nil)
        let result = try SSIPClientProcess.spdSay(ssip, ["-w", "-P", "notification", "A notification nobody hears"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let dropped = try #require(watcher.waitFor { $0.event == "speech" && $0["state"] == .string("finished") })
        #expect(
            dropped["success"] == .bool(false) && dropped["seq"] != .integer(Int64(speaking)),
            "the notification, not the message: \(dropped.text)")
        #expect(
            !watcher.received.contains { $0["state"] == .string("started") && $0["seq"] == dropped["seq"] },
            "never started")
        #expect(owner.events(messageID: speaking).map(\.code) == [701], "the message speaks on")
    }

    @Test("spd-say -w while speech is muted (natively) exits 0: its message ends cancelled at once, never started")
    func mutedDaemon() throws {
        let ssip = try SSIPDaemon(audio: "null")
        let watcher = try speechWatcher(ssip.daemon)
        watcher.send(#"{"op":"set","id":2,"muted":true}"#)
        try #require(watcher.waitFor("ok", id: 2) != nil)
        let result = try SSIPClientProcess.spdSay(ssip, ["-w", "Nobody hears this"], timeout: 20)
        #expect(result.status == 0, "spd-say -w got its 703: \(result.stdout)\(result.stderr)")
        let finished = try #require(watcher.waitFor { $0.event == "speech" && $0["state"] == .string("finished") })
        #expect(finished["success"] == .bool(false) && finished["reason"] == .string("muted"), "\(finished.text)")
        #expect(!watcher.received.contains { $0["state"] == .string("started") }, "never started")
    }

    @Test("a line holding only a dot in spd-say's text is text: the message is spoken whole and spd-say -w ends")
    func loneDotLine() throws {
        let ssip = try SSIPDaemon(audio: "null")
        let daemon = ssip.daemon
        let watcher = try speechWatcher(daemon)
        // libspeechd doubles a dot only on a CR LF line ("\r\n.\r\n"); this one ends with a bare LF.
        let text = "first line\n.\nlast line"
        let result = try SSIPClientProcess.spdSay(ssip, ["-w", text], timeout: 20)
        #expect(result.status == 0, "spd-say -w got its 702: \(result.stdout)\(result.stderr)")
        let started = watcher.waitFor { $0.event == "speech" && $0["state"] == .string("started") }
        #expect(started?["text"] == .string(text))
        // The connection did not take the rest of the text for commands: the next message is fine.
        #expect(try SSIPClientProcess.spdSay(ssip, ["-w", "Next"], timeout: 20).status == 0)
    }

    @Test(
        "a text over max_text_chars is refused: spd-say says it failed to say the message and exits 1; the next one is spoken"
    )
    func textOverTheLimit() throws {
        let ssip = try SSIPDaemon(audio: "null", environment: ["ANNOUNCED_MAX_TEXT_CHARS": "1000"])
        let daemon = ssip.daemon
        let watcher = try speechWatcher(daemon)
        let refused = try SSIPClientProcess.spdSay(ssip, ["-w", String(repeating: "word ", count: 300)], timeout: 20)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("Speech Dispatcher failed to say message"), "\(refused.stderr)")
        #expect(try SSIPClientProcess.spdSay(ssip, ["-w", "Short enough"], timeout: 20).status == 0)
        let started = watcher.waitFor { $0.event == "speech" && $0["state"] == .string("started") }
        #expect(started?["text"] == .string("Short enough"), "the refused text was never spoken")
    }

    @Test("spd-say -e (pipe mode) echoes its input and speaks each line, -w waiting for each")
    func pipeMode() throws {
        let ssip = try SSIPDaemon(audio: "null")
        let daemon = ssip.daemon
        let watcher = try speechWatcher(daemon)
        let tool = try SSIPClientProcess.start(try #require(SSIPClientProcess.spdSay), ["-e", "-w"], daemon: ssip)
        tool.finishInput("First line\nSecond line\n")
        let result = tool.finish(timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "First line\nSecond line\n")
        var texts: [String] = []
        for _ in 0..<2 {
            let finished = try #require(watcher.waitFor { $0.event == "speech" && $0["state"] == .string("finished") })
            #expect(finished["success"] == .bool(true), "\(finished.text)")
            texts += watcher.received.filter { $0["state"] == .string("started") && $0["seq"] == finished["seq"] }
                .compactMap { $0["text"]?.stringValue }
        }
        #expect(texts.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } == ["First line", "Second line"])
    }

    @Test("spd-say -c speaks a character, -k a key, -I a sound icon")
    func characterKeyAndIcon() throws {
        let ssip = try SSIPDaemon()
        let daemon = ssip.daemon
        let watcher = try speechWatcher(daemon)
        let character = try spdSaySpoken(ssip, watcher, "-c", "a")
        #expect(character.started?["text"] == .string("a"))
        #expect(!character.audio.isEmpty)
        let key = try spdSaySpoken(ssip, watcher, "-k", "shift_a")
        #expect(key.started?["text"] == .string("shift a"))
        #expect(key.audio.count > character.audio.count, "two words are longer than a letter")
        let icon = try spdSaySpoken(ssip, watcher, "-I", "boundary")
        #expect(icon.started?["text"] == .string(""), "a sound, no text")
        #expect(!icon.audio.isEmpty, "the boundary earcon is in the recording")
    }

    @Test(
        "spd-say -l fr and -y fr speak with espeak-ng's French voice: the audio equals espeak-ng -v fr's",
        arguments: [["-l", "fr"], ["-y", "fr"]]
    )
    func frenchVoice(option: [String]) throws {
        let ssip = try SSIPDaemon()
        let daemon = ssip.daemon
        let watcher = try speechWatcher(daemon)
        // The first message after the daemon started (espeak-ng carries state from one synthesis to the next).
        let message = try spdSaySpoken(ssip, watcher, option + ["Bonjour tout le monde"])
        let reference = WAVFile.trimmed(try espeakReference(text: "Bonjour tout le monde", voice: "fr", rate: 175))
        #expect(message.audio.count == reference.count)
        #expect(message.audio.elementsEqual(reference), "spd-say \(option) is not espeak-ng's French voice")
    }

    @Test(
        "each of spd-say's voice options is accepted and changes the audio as it should",
        arguments: SpdSayOptionEffect.all)
    func optionEffect(_ effect: SpdSayOptionEffect) throws {
        let ssip = try SSIPDaemon()
        let daemon = ssip.daemon
        let watcher = try speechWatcher(daemon)
        let with = try spdSaySpoken(ssip, watcher, effect.with)
        let against = try spdSaySpoken(ssip, watcher, effect.against)
        #expect(
            effect.holds(with.audio, against.audio),
            "\(effect.claim): \(with.audio.count) samples (rms \(Int(rms(with.audio)))) against \(against.audio.count) (rms \(Int(rms(against.audio))))"
        )
    }

    @Test("spd-say -o, -R and -P are accepted without a complaint")
    func acceptedOptions() throws {
        let ssip = try SSIPDaemon()
        let daemon = ssip.daemon
        let watcher = try speechWatcher(daemon)
        for option in [["-o", "espeak-ng"], ["-R", "30"], ["-P", "important"], ["-P", "progress"]] {
            _ = try spdSaySpoken(ssip, watcher, option + ["Fine"])
        }
    }

    @Test("spd-say -L lists espeak-ng's voices under its header line; -O lists espeak-ng and piper")
    func lists() throws {
        let ssip = try SSIPDaemon(audio: "null")
        let voices = try SSIPClientProcess.spdSay(ssip, ["-L"])
        #expect(voices.status == 0, "\(voices.stderr)")
        let lines = voices.stdout.split(separator: "\n").map(String.init)
        let column = { (text: String) in String(repeating: " ", count: max(0, 25 - text.count)) + text }
        #expect(lines.first == column("NAME") + column("LANGUAGE") + column("VARIANT"))
        #expect(lines.count > 50, "espeak-ng has many voices: \(lines.count) lines")
        #expect(lines.contains(column("fr") + column("fr-FR") + column("none")))
        #expect(lines.contains(column("en-us") + column("en-US") + column("none")))
        let modules = try SSIPClientProcess.spdSay(ssip, ["-O"])
        #expect(modules.status == 0)
        // piper: its helper, announced-piper, is built beside the tests' daemon.
        #expect(modules.stdout == "OUTPUT MODULES\nespeak-ng\npiper\n")
    }

    @Test(
        "spd-say exits 0 against the daemon and 1, saying why, once no server listens, as with speech-dispatcher absent"
    )
    func exitCodes() throws {
        let ssip = try SSIPDaemon(audio: "null")
        let daemon = ssip.daemon
        let ssipPath = ssip.ssipPath
        #expect(try SSIPClientProcess.spdSay(ssip, ["-w", "Here"]).status == 0)
        #expect(try SSIPClientProcess.spdSay(ssip, ["-C"]).status == 0)
        // No text and no action: spd-say prints its help and exits 1 without connecting.
        let usage = try SSIPClientProcess.spdSay(ssip, [])
        #expect(usage.status == 1)
        #expect(
            usage.stdout.contains("Usage: \(try #require(SSIPClientProcess.spdSay)) [options]"),
            "stdout: \(usage.stdout) stderr: \(usage.stderr)")
        #expect(daemon.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: ssipPath), "the daemon removes its SSIP socket")
        // What spd-say does when no server is there at all (SPEECHD_CMD=/bin/false: no autospawn).
        let gone = try SSIPClientProcess.spdSay(ssip, ["Nobody listens"])
        #expect(gone.status == 1)
        #expect(gone.stderr.hasPrefix("Failed to connect to Speech Dispatcher:"), "\(gone.stderr)")
        #expect(gone.stderr.contains("Can't connect to unix socket \(ssipPath)"), "\(gone.stderr)")
    }
}

/// One spd-say option, and what it changes in the audio compared with another setting.
struct SpdSayOptionEffect: Sendable, CustomTestStringConvertible {
    var with: [String]
    var against: [String]
    var claim: String
    var holds: @Sendable (ArraySlice<Int16>, ArraySlice<Int16>) -> Bool
    var testDescription: String { claim }

    static let all: [SpdSayOptionEffect] = [
        SpdSayOptionEffect(
            with: ["-r", "50", "Hello there"], against: ["-r", "-50", "Hello there"],
            claim: "-r 50 is faster than -r -50"
        ) {
            $0.count < $1.count * 3 / 4
        },
        SpdSayOptionEffect(
            with: ["-p", "50", "Hello there"], against: ["-p", "-50", "Hello there"],
            claim: "-p 50 sounds other than -p -50"
        ) {
            $0 != $1
        },
        SpdSayOptionEffect(
            with: ["-i", "-50", "Hello there"], against: ["-i", "50", "Hello there"],
            claim: "-i -50 is quieter than -i 50"
        ) {
            rms($0) < rms($1) * 3 / 4
        },
        SpdSayOptionEffect(
            with: ["-l", "fr", "Bonjour"], against: ["-l", "en", "Bonjour"], claim: "-l fr speaks other than -l en"
        ) {
            $0 != $1
        },
        SpdSayOptionEffect(
            with: ["-t", "female1", "Hello there"], against: ["-t", "male1", "Hello there"],
            claim: "-t female1 sounds other than -t male1"
        ) {
            $0 != $1
        },
        SpdSayOptionEffect(
            with: ["-m", "all", "one, two; three."], against: ["-m", "none", "one, two; three."],
            claim: "-m all says the punctuation -m none leaves out"
        ) {
            $0.count > $1.count * 5 / 4
        },
        SpdSayOptionEffect(with: ["-s", "hello"], against: ["hello"], claim: "-s spells the word out") {
            $0.count > $1.count * 2
        },
        SpdSayOptionEffect(
            with: ["-x", #"<speak>one <break time="1s"/> two</speak>"#],
            against: [#"<speak>one <break time="1s"/> two</speak>"#],
            claim: "-x makes the text SSML: a one-second break, and no tags read out"
        ) {
            longestQuiet($0) > 22050 * 9 / 10 && longestQuiet($1) < 22050 / 2 && $0.count < $1.count
        },
    ]
}

/// The longest run of samples quieter than -36 dB.
func longestQuiet(_ samples: ArraySlice<Int16>) -> Int {
    var longest = 0
    var run = 0
    for sample in samples {
        run = abs(Int(sample)) < 512 ? run + 1 : 0
        longest = max(longest, run)
    }
    return longest
}
