// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import Glibc
import TestSupport
import Testing

/// A Spiel client (Fixtures/spiel-client.py: python3-gi's Gio passing a real pipe in a
/// UnixFDList) against the real daemon on a private session bus: one run of the client, its JSON.
struct SpielClient {
    let session: DesktopSession
    /// Whether the session bus and python3-gi are installed.
    static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon")
            && FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/gi/__init__.py")
    }
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/spiel-client.py").path

    func run(_ arguments: [String], extra: [String: String] = [:], timeout: Double = 60) throws -> JSONValue {
        let result = try session.run("/usr/bin/python3", [Self.script] + arguments, extra: extra, timeout: timeout)
        try #require(result.status == 0, "spiel-client.py \(arguments.first ?? ""): \(result.output)")
        let line = try #require(result.output.split(separator: "\n").last.map(String.init), "\(result.output)")
        return try JSONParser.parse(line)
    }

    /// One stream to its end: the client's summary and the samples it read.
    func stream(voice: String, text: String, pitch: Double = 1, rate: Double = 1, ssml: Bool = false) throws -> (
        summary: JSONValue, samples: [Int16]
    ) {
        let path = session.directory.appendingPathComponent("stream-\(UUID().uuidString.prefix(6)).raw").path
        let summary = try run(["stream", voice, text, "\(pitch)", "\(rate)", ssml ? "ssml" : "plain", path])
        return (summary, try Self.samples(at: path))
    }

    static func samples(at path: String) throws -> [Int16] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }
}

/// A daemon serving the private session bus of `session`, once it owns the provider's name.
func spielDaemon(_ session: DesktopSession, environment: [String: String] = [:]) throws -> DaemonProcess {
    try session.startSessionBus()
    let daemon = try DaemonProcess(
        environment: ["DBUS_SESSION_BUS_ADDRESS": try #require(session.busAddress)].merging(environment) { $1 })
    #expect(daemon.waitForStderr(containing: "Spiel speech provider on the session bus", timeout: 20))
    return daemon
}

/// What announced itself renders for `text` (the WAV output): the post's samples.
private func ownRendering(_ daemon: DaemonProcess, id: Int, _ text: String, _ options: String) throws -> [Int16] {
    let client = try daemon.connect()
    client.send(announce(id, text, options))
    let finished = try #require(client.waitForTerminal(id: id, timeout: 90))
    #expect(finished["success"] == .bool(true), "\(finished.text)")
    return try daemon.wavSamples(seq: try #require(finished["seq"]?.intValue))
}

/// What a daemon of its own, whose espeak-ng helper has spoken nothing yet, renders for `text`.
/// A Spiel stream speaks with the speech thread's warm helper (or a spare while requests
/// overlap), and espeak-ng's noise for unvoiced sounds goes on from its helper's last text, so a
/// stream is compared, sample for sample, with a helper's first text, as the stream was.
private func freshRendering(_ text: String, _ options: String) throws -> [Int16] {
    let daemon = try DaemonProcess()
    defer { _ = daemon.stop() }
    return try ownRendering(daemon, id: 1, text, options)
}

extension JSONValue {
    fileprivate var events: [JSONValue] { self["events"]?.arrayValue ?? [] }
}

/// Issue 33 §4: announced as a Spiel speech provider (`org.announced.Speech.Provider`), driven by
/// a real D-Bus client passing a real pipe, against the real daemon on a private session bus.
@Suite(
    "Daemon: a Spiel speech provider on the session bus", .daemonTimeLimit, .onBlockingThreads,
    .enabled(
        if: SpielClient.isAvailable,
        "needs a session bus and python3-gi (apt-get install dbus-daemon python3-gi)")
)
struct SpielProviderTests {
    @Test("Voices lists espeak-ng's voices with their languages, in audio/x-spiel")
    func voices() throws {
        let session = try DesktopSession()
        let daemon = try spielDaemon(session)
        let listed = try SpielClient(session: session).run(["voices"])["voices"]?.arrayValue ?? []
        let english = try #require(listed.first { $0.arrayValue?[1].stringValue == "en-us" }?.arrayValue)
        #expect(english[2].stringValue == "audio/x-spiel,format=S16LE,channels=1,rate=22050")
        #expect(english[3].intValue == 0x1 | 0x8)
        #expect(english[4].arrayValue?.compactMap { $0.stringValue }.contains("en-us") == true)
        #expect(listed.count > 50, "espeak-ng has over 100 voices: \(listed.count)")
        #expect(daemon.stop() == 0)
    }

    @Test("a stream: header 0.01, word events, and the audio announced itself renders, sample for sample")
    func streamEqualsOwnRendering() throws {
        let session = try DesktopSession()
        let daemon = try spielDaemon(session)
        let text = "Your download is complete"
        let (summary, samples) = try SpielClient(session: session).stream(
            voice: "en-us", text: text, pitch: 1.2, rate: 1.2)
        #expect(summary["header"]?.stringValue == "0.01")
        let words = summary.events.filter { $0["type"]?.intValue == 1 }
        #expect(words.map { $0["start"]?.intValue ?? -1 } == [0, 5, 14, 17], "\(summary.text)")
        // Spiel's 1.2 is 1.2 times announced's rate (175) and pitch (50).
        let own = try freshRendering(text, #","voice":"en-us","rate":210,"pitch":60"#)
        #expect(samples.count > 10_000)
        #expect(samples == own, "\(samples.count) samples streamed, \(own.count) rendered")
        #expect(daemon.stderrSoFar().contains("end=finished name=spiel:python3 voice=en-us"))
        #expect(daemon.stop() == 0)
    }

    @Test(
        "Spiel's rate past 450 wpm: rate 8 is 8 times announced's rate (1400 wpm), announced's own rendering at that rate"
    )
    func fastRate() throws {
        let session = try DesktopSession()
        let daemon = try spielDaemon(session)
        let text = "Your download is complete"
        let (_, samples) = try SpielClient(session: session).stream(voice: "en-us", text: text, rate: 8)
        let own = try freshRendering(text, #","voice":"en-us","rate":1400"#)
        #expect(samples.count > 1000)
        #expect(samples == own, "\(samples.count) samples streamed, \(own.count) rendered at 1400 wpm")
        #expect(daemon.stop() == 0)
    }

    @Test("SSML marks arrive as mark events, in order")
    func marks() throws {
        let session = try DesktopSession()
        let daemon = try spielDaemon(session)
        let ssml = #"<speak>One <mark name="first"/> two <mark name="second"/> three <mark name="third"/></speak>"#
        let (summary, _) = try SpielClient(session: session).stream(voice: "en-us", text: ssml, ssml: true)
        let marks = summary.events.filter { $0["type"]?.intValue == 4 }
        #expect(marks.compactMap { $0["name"]?.stringValue } == ["first", "second", "third"], "\(summary.text)")
        let places = marks.compactMap { $0["at"]?.intValue }
        #expect(places == places.sorted() && places.first ?? 0 > 0, "marks where their audio is: \(places)")
        #expect(daemon.stop() == 0)
    }

    @Test(
        "a client that closes its end cancels the stream: its helper is told to stop, read to its done and given back")
    func cancellation() throws {
        let session = try DesktopSession()
        let daemon = try spielDaemon(session)
        let text = String(repeating: "This chapter goes on and on. ", count: 200)
        let closed = try SpielClient(session: session).run(["cancel", "en-us", text])
        #expect(closed["closed"] == .bool(true))
        #expect(daemon.waitForStderr(containing: "spiel stream ended", timeout: 10))
        #expect(daemon.stderrSoFar().contains("end=cancelled"), "\(daemon.stderrSoFar().suffix(2000))")
        #expect(daemon.stop() == 0)
    }

    @Test("two overlapping requests each get their own stream")
    func overlapping() throws {
        let session = try DesktopSession()
        let daemon = try spielDaemon(session)
        let client = SpielClient(session: session)
        let first = "The first of two streams, a little longer than the second."
        let second = "The second stream."
        let paths = ["a", "b"].map { session.directory.appendingPathComponent("overlap-\($0).raw").path }
        let both = try client.run(["overlap", "en-us", first, second] + paths)
        #expect(both["streams"]?.arrayValue?.allSatisfy { $0["header"]?.stringValue == "0.01" } == true)
        // Each stream was its helper's first text (the warm helper's, and a spare's for the
        // overlap): the same samples as announced's own first rendering of it.
        let alone = try [first, second].map { try freshRendering($0, #","voice":"en-us""#) }
        #expect(try SpielClient.samples(at: paths[0]) == alone[0])
        #expect(try SpielClient.samples(at: paths[1]) == alone[1])
        #expect(daemon.stderrSoFar().contains("espeak-ng spare helper started"), "the overlap had a spare")
        #expect(alone[0] != alone[1])
        #expect(daemon.stop() == 0)
    }

    @Test("the D-Bus activation file starts announced when a Spiel client calls its name")
    func activation() throws {
        let session = try DesktopSession()
        let services = session.directory.appendingPathComponent("services")
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        let shipped = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("systemd/org.announced.Speech.Provider.service"),
            encoding: .utf8)
        #expect(shipped.contains("\nSystemdService=announced.service\n"))
        #expect(shipped.contains("\nName=org.announced.Speech.Provider\n"))
        // The shipped file, its Exec pointed at the built daemon (as `make install` points it at BINDIR).
        let exec = "Exec=\(DaemonProcess.executable.path) --audio null --socket \(session.runtime.path)/a.sock"
        try shipped.replacingOccurrences(of: "Exec=/usr/local/bin/announced", with: exec).write(
            to: services.appendingPathComponent("org.announced.Speech.Provider.service"), atomically: true,
            encoding: .utf8)
        let bus = session.runtime.appendingPathComponent("bus").path
        let configuration = session.directory.appendingPathComponent("bus.conf")
        try """
        <busconfig><type>session</type><listen>unix:path=\(bus)</listen><servicedir>\(services.path)</servicedir>
        <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/>
        <allow own="*"/></policy></busconfig>
        """.write(to: configuration, atomically: true, encoding: .utf8)
        // dbus-daemon prints its address once it listens.
        let daemon = try session.start(
            "dbus-daemon", "/usr/bin/dbus-daemon",
            ["--config-file=\(configuration.path)", "--nofork", "--print-address=1"],
            output: .pipe)
        let address = DesktopSession.firstLine(of: daemon, timeout: 30, where: { $0.hasPrefix("unix:") })
        try #require(address != nil && FileManager.default.fileExists(atPath: bus), "dbus-daemon did not listen")
        // Nothing owns the name yet: the call activates announced.
        let listed = try SpielClient(session: session).run(
            ["voices"], extra: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(bus)"])
        #expect(listed["voices"]?.arrayValue?.contains { $0.arrayValue?[1].stringValue == "en-us" } == true)
    }

    @Test("an unknown voice id is a D-Bus error that says what to use")
    func badVoice() throws {
        let session = try DesktopSession()
        let daemon = try spielDaemon(session)
        let summary = try SpielClient(session: session).run([
            "stream", "no-such-voice", "Hello", "1", "1", "plain", "/dev/null",
        ])
        #expect(summary["error"]?.stringValue == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(summary["message"]?.stringValue?.contains(#"announced has no voice "no-such-voice""#) == true)
        // The provider keeps working.
        #expect(try SpielClient(session: session).stream(voice: "en-us", text: "Hello").samples.count > 1000)
        #expect(daemon.stop() == 0)
    }

    @Test(
        "a Piper voice: installing it changes Voices (PropertiesChanged), and its stream is announced's own rendering",
        .enabled(
            if: FetchedPiper.isFetched,
            "the Piper engine or its test voice is not fetched: run scripts/fetch-piper-engine.sh")
    )
    func piperVoice() throws {
        let session = try DesktopSession()
        let daemon = try spielDaemon(
            session,
            environment: ["ANNOUNCED_PIPER_LIBRARY_DIR": FetchedPiper.libraryDirectory, "ANNOUNCED_PIPER_NOISE": "0"])
        let watchLog = session.logPath("watch-voices")
        let watcher = try session.start("watch-voices", "/usr/bin/python3", [SpielClient.script, "watch-voices", "30"])
        // The watcher prints "watching" once subscribed: its log changing is the event.
        let watching = waitForFile(session.logPath("watch-voices"), toContain: "watching", timeout: 30)
        try #require(watching, "the watcher did not subscribe: \(session.log("watch-voices"))")
        try FetchedPiper.install(in: daemon.voicesDirectory)
        #expect(watcher.waitForExit() == 0)
        let lines = try String(contentsOfFile: watchLog, encoding: .utf8).split(separator: "\n")
        let changed = try JSONParser.parse(String(try #require(lines.last)))
        let joe = changed["voices"]?.arrayValue?.first { $0.arrayValue?[1].stringValue == "en_us-joe-medium" }
        #expect(
            joe?.arrayValue?[4].arrayValue?.compactMap { $0.stringValue }.contains("en-us") == true, "\(changed.text)")

        let text = "Download complete."
        let (summary, samples) = try SpielClient(session: session).stream(voice: "en_us-joe-medium", text: text)
        #expect(summary["header"]?.stringValue == "0.01")
        let own = try ownRendering(daemon, id: 1, text, #","voice":"en_us-joe-medium""#)
        #expect(samples.count == own.count && samples.count > 5000, "\(samples.count) vs \(own.count)")
        #expect(daemon.stderrSoFar().contains("end=finished name=spiel:python3 voice=en_us-joe-medium"))
        #expect(largestDifference(samples, own) <= renderingTolerance)
        #expect(daemon.stop() == 0)
    }
}
