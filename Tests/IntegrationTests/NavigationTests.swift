// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import TestSupport
import Testing

/// The task timer's screen: a heading, an adjustable duration, a start button, a help link and a
/// reset button with custom actions; a custom rotor "Controls" lists reset before the duration.
private let timerScreen = #"""
    {"op":"screen-changed","id":100,"element":null,"elements":[
    {"id":"title","label":"Timer","traits":["header"]},
    {"id":"time","label":"Duration","value":"5 minutes","traits":["adjustable"]},
    {"id":"start","label":"Start","traits":["button"],"hint":"Starts the timer."},
    {"id":"help","label":"Help","traits":["link"]},
    {"id":"find","label":"Find","traits":["search-field"]},
    {"id":"reset","label":"Reset","traits":["button"],"actions":["Reset all","Undo"]}],
    "rotors":[{"name":"Controls","elements":["reset","time"]}]}
    """#.split(separator: "\n").joined()

/// A daemon, an app that has published `timerScreen` (its post ended), and a second connection
/// for the user's keys, subscribed to `speech` events when asked.
private func timerScreenAndKeys(subscribed: Bool) throws -> (DaemonProcess, LineClient, LineClient) {
    let daemon = try DaemonProcess()
    let app = try daemon.connect()
    app.send(timerScreen)
    try #require(app.waitForTerminal(id: 100) != nil)
    let keys = try daemon.connect()
    if subscribed {
        keys.send(#"{"op":"subscribe","id":1,"events":["speech"]}"#)
        try #require(keys.waitFor("ok", id: 1) != nil)
    }
    return (daemon, app, keys)
}

extension LineClient {
    /// Sends `navigate` and returns its answer (`ok` or `error`).
    func navigate(_ action: String, _ extra: String = "", id: Int) -> JSONValue? {
        send(#"{"op":"navigate","id":\#(id),"action":"\#(action)"\#(extra)}"#)
        return waitFor { $0["id"] == .integer(Int64(id)) && ($0.event == "ok" || $0.event == "error") }
    }

    /// Waits for the `speech` event of navigation speech that finished, and returns its seq
    /// and text (from the matching `started`).
    func nextNavigationSpeech(timeout: Double = 30) -> (seq: Int, text: String, success: Bool)? {
        guard
            let started = waitFor(
                timeout: timeout, { $0.event == "speech" && $0["state"] == "started" && $0["client"] == "navigation" }),
            let seq = started["seq"]?.integerValue,
            let finished = waitFor(
                timeout: timeout, { $0.event == "speech" && $0["state"] == "finished" && $0["seq"] == .integer(seq) })
        else { return nil }
        return (Int(seq), started["text"]?.stringValue ?? "", finished["success"] == .bool(true))
    }

    /// A status round trip: every line the daemon sent before it has arrived afterwards.
    func roundTrip(id: Int) -> JSONValue? {
        send(#"{"op":"status","id":\#(id)}"#)
        return waitFor("ok", id: id)
    }
}

/// The played audio of post `seq` is espeak-ng's rendering of `text`: as long (within 2 %) and
/// with the same loudness envelope (10 ms windows, correlation over 0.9). Not sample for sample:
/// espeak-ng's waveform phase carries over from the utterance before, so only a fresh daemon's
/// first utterance is bit-exact.
private func expectPlayed(
    _ daemon: DaemonProcess, seq: Int, _ text: String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let played = WAVFile.trimmed(try daemon.wavSamples(seq: seq))
    let reference = WAVFile.trimmed(try espeakReference(text: text, voice: "en-us", rate: 175))
    #expect(played.count > 1000, sourceLocation: sourceLocation)
    let lengthRatio = Double(played.count) / Double(max(1, reference.count))
    #expect(
        abs(lengthRatio - 1) < 0.02, "the audio of #\(seq) is \(played.count) samples, \"\(text)\" \(reference.count)",
        sourceLocation: sourceLocation)
    let correlation = envelopeCorrelation(Array(played), Array(reference))
    #expect(
        correlation > 0.9, "the audio of #\(seq) does not sound like \"\(text)\" (envelope correlation \(correlation))",
        sourceLocation: sourceLocation)
}

/// The Pearson correlation of two signals' RMS envelopes in 10 ms windows (at 22050 Hz).
func envelopeCorrelation(_ a: [Int16], _ b: [Int16]) -> Double {
    func envelope(_ samples: [Int16]) -> [Double] {
        stride(from: 0, to: samples.count - 220, by: 220).map { start in
            let window = samples[start..<start + 220]
            return (window.reduce(0.0) { $0 + Double($1) * Double($1) } / 220).squareRoot()
        }
    }
    let x = envelope(a)
    let y = envelope(b)
    let n = min(x.count, y.count)
    guard n > 2 else { return 0 }
    let mx = x[..<n].reduce(0, +) / Double(n)
    let my = y[..<n].reduce(0, +) / Double(n)
    var sxy = 0.0
    var sxx = 0.0
    var syy = 0.0
    for i in 0..<n {
        sxy += (x[i] - mx) * (y[i] - my)
        sxx += (x[i] - mx) * (x[i] - mx)
        syy += (y[i] - my) * (y[i] - my)
    }
    return sxy / (sxx * syy).squareRoot()
}

@Suite("Daemon: navigating an app's screen", .daemonTimeLimit, .onBlockingThreads, .serialized)
struct NavigationIntegrationTests {
    @Test(
        "two apps and a navigator: the latest screen is current, actions reach only its owner, and the earlier screen returns when its owner leaves"
    )
    func ownerStack() throws {
        let daemon = try DaemonProcess()
        let mail = try daemon.connect()
        mail.send(
            #"{"op":"hello","id":1,"client":"mail"}"#,
            #"{"op":"screen-changed","id":2,"elements":[{"id":"inbox","label":"Inbox","traits":["button"]}]}"#)
        try #require(mail.waitForTerminal(id: 2) != nil)
        var music: LineClient? = try daemon.connect()
        music?.send(
            #"{"op":"hello","id":1,"client":"music"}"#,
            #"{"op":"screen-changed","id":2,"elements":[{"id":"play","label":"Play","traits":["button"]}]}"#)
        try #require(music?.waitForTerminal(id: 2) != nil)

        let keys = try daemon.connect()
        keys.send(#"{"op":"hello","id":1,"client":"keys"}"#, #"{"op":"subscribe","id":2,"events":["focus","speech"]}"#)
        let hello = try #require(keys.waitFor("ok", id: 1))
        #expect(hello["features"]?.arrayValue?.contains(.string("navigation")) == true)
        let status = try #require(keys.roundTrip(id: 3))
        #expect(status["screen"] == .string("music") && status["stops"] == .integer(1))

        #expect(keys.navigate("first", id: 10)?.text == #"{"event":"ok","id":10,"focus":"play","rotor":null}"#)
        #expect(keys.navigate("activate", id: 11)?.event == "ok")
        let action = try #require(music?.waitFor { $0.event == "action" })
        #expect(action.text == #"{"event":"action","element":"play","action":"activate"}"#)
        #expect(music?.received.contains { $0.event == "focused" && $0["element"] == "play" } == true)
        _ = mail.roundTrip(id: 3)
        #expect(!mail.received.contains { $0.event == "action" }, "only the owner hears actions")
        #expect(!keys.received.contains { $0.event == "action" })

        music = nil
        try #require(keys.waitFor { $0.event == "focus-changed" && $0["to"] == .null } != nil)
        #expect(keys.roundTrip(id: 4)?["screen"] == .string("mail"))
        #expect(keys.navigate("next", id: 12)?["focus"] == .string("inbox"))
        #expect(keys.navigate("activate", id: 13)?.event == "ok")
        #expect(mail.waitFor { $0.event == "action" }?["element"] == .string("inbox"))
    }

    @Test("adjustable round trip: increment reaches the app, its update speaks the new value alone, heard in the audio")
    func adjustable() throws {
        let (daemon, app, keys) = try timerScreenAndKeys(subscribed: true)

        #expect(keys.navigate("first", id: 2)?.event == "ok")
        #expect(keys.navigate("next", id: 3)?["focus"] == .string("time"))
        while let speech = keys.nextNavigationSpeech(), speech.text != "Duration, 5 minutes, adjustable" {}
        #expect(keys.navigate("increment", id: 4)?.event == "ok")
        let action = try #require(app.waitFor { $0.event == "action" })
        #expect(action.text == #"{"event":"action","element":"time","action":"increment"}"#)
        app.send(#"{"op":"update","id":5,"element":{"id":"time","value":"6 minutes"}}"#)
        #expect(app.waitFor("ok", id: 5) != nil)
        let spoken = try #require(keys.nextNavigationSpeech())
        #expect(spoken.text == "6 minutes" && spoken.success)
        try expectPlayed(daemon, seq: spoken.seq, "6 minutes")

        #expect(keys.navigate("decrement", id: 6)?.event == "ok")
        #expect(app.waitFor { $0.event == "action" && $0["action"] == "decrement" } != nil)
        #expect(keys.navigate("next", id: 7)?.event == "ok")
        #expect(keys.navigate("increment", id: 8)?["code"] == .string("not-adjustable"))
        keys.send(#"{"op":"update","id":9,"element":{"id":"time","value":"1 minute"}}"#)
        #expect(keys.waitFor("error", id: 9)?["code"] == .string("forbidden"))
    }

    @Test("custom actions: by name, and through the actions rotor and activate")
    func customActions() throws {
        let (daemon, app, keys) = try timerScreenAndKeys(subscribed: true)
        #expect(keys.navigate("last", id: 2)?["focus"] == .string("reset"))
        #expect(keys.navigate("custom", #","name":"Undo""#, id: 3)?.event == "ok")
        #expect(
            app.waitFor { $0.event == "action" }?.text
                == #"{"event":"action","element":"reset","action":"custom","name":"Undo"}"#)
        #expect(keys.navigate("custom", #","name":"Delete""#, id: 4)?["code"] == .string("not-found"))

        #expect(keys.navigate("rotor-select", #","rotor":"actions""#, id: 5)?["rotor"] == .string("actions"))
        #expect(keys.navigate("rotor-next", id: 6)?["focus"] == .string("reset"))
        var heard: [String] = []
        while let speech = keys.nextNavigationSpeech() {
            heard.append(speech.text)
            if speech.text == "Reset all" {
                try expectPlayed(daemon, seq: speech.seq, "Reset all")
                break
            }
        }
        #expect(heard.last == "Reset all")
        #expect(keys.navigate("activate", id: 7)?.event == "ok")
        #expect(
            app.waitFor { $0.event == "action" }?.text
                == #"{"event":"action","element":"reset","action":"custom","name":"Reset all"}"#)
        #expect(keys.navigate("first", id: 8)?.event == "ok")
        #expect(keys.navigate("rotor-next", id: 9)?["code"] == .string("no-actions"))
    }

    @Test("each built-in rotor and a custom one move between their elements")
    func rotors() throws {
        let (daemon, app, keys) = try timerScreenAndKeys(subscribed: false)
        // From the first stop (the heading) onwards, in each rotor's order.
        let expected: [(String, [String])] = [
            ("headings", []), ("links", ["help"]), ("buttons", ["start", "reset"]),
            ("form-controls", ["time", "find"]), ("Controls", ["reset", "time"]),
        ]
        var id = 10
        for (rotor, ids) in expected {
            id += 1
            #expect(keys.navigate("rotor-select", #","rotor":"\#(rotor)""#, id: id)?["rotor"] == .string(rotor))
            id += 1
            _ = keys.navigate("first", id: id)
            var visited: [String] = []
            while true {
                id += 1
                guard let answer = keys.navigate("rotor-next", id: id), answer.event == "ok" else {
                    #expect(keys.received.last?["code"] == .string("end-of-screen"))
                    break
                }
                visited.append(answer["focus"]?.stringValue ?? "")
            }
            #expect(visited == ids, "\(rotor)")
        }
        id += 1
        _ = keys.navigate("rotor-select", #","rotor":"headings""#, id: id)
        id += 1
        _ = keys.navigate("last", id: id)
        id += 1
        #expect(keys.navigate("rotor-previous", id: id)?["focus"] == .string("title"))
        id += 1
        #expect(keys.navigate("rotor-select", #","rotor":"Colours""#, id: id)?["code"] == .string("not-found"))
        // The daemon and the screen's owner must outlive the navigation above.
        withExtendedLifetime((daemon, app)) {}
    }

    @Test("end of screen: the focus stays, and the boundary earcon is played")
    func endOfScreen() throws {
        let daemon = try DaemonProcess()
        let app = try daemon.connect()
        app.send(#"{"op":"screen-changed","id":1,"elements":[{"id":"a","label":"Alpha"},{"id":"b","label":"Beta"}]}"#)
        try #require(app.waitForTerminal(id: 1) != nil)
        let keys = try daemon.connect()
        keys.send(#"{"op":"subscribe","id":1,"events":["speech"]}"#)
        _ = keys.waitFor("ok", id: 1)
        #expect(keys.navigate("last", id: 2)?["focus"] == .string("b"))
        let beta = try #require(keys.nextNavigationSpeech())
        #expect(beta.text == "Beta" && beta.success)
        try expectPlayed(daemon, seq: beta.seq, "Beta")
        let end = try #require(keys.navigate("next", id: 3))
        #expect(end["code"] == .string("end-of-screen"))
        let earcon = try #require(keys.nextNavigationSpeech())
        #expect(earcon.text == "")
        let samples = try daemon.wavSamples(seq: earcon.seq)
        #expect(samples.count > 1000 && samples.count < 4000, "about 70 ms of tone")
        #expect(samples.contains { abs(Int($0)) > 4000 }, "audible")
        #expect(keys.roundTrip(id: 4)?["focus"] == .string("b"))
    }

    @Test("read-all speaks every stop to the end, moving the focus, and any other navigate ends it")
    func readAll() throws {
        let daemon = try DaemonProcess()
        let app = try daemon.connect()
        app.send(
            #"{"op":"screen-changed","id":1,"elements":[{"id":"a","label":"Alpha"},{"id":"b","label":"Beta"},{"id":"c","label":"Gamma"}]}"#
        )
        try #require(app.waitForTerminal(id: 1) != nil)
        let keys = try daemon.connect()
        keys.send(#"{"op":"subscribe","id":1,"events":["speech"]}"#)
        _ = keys.waitFor("ok", id: 1)
        _ = keys.navigate("first", id: 2)
        _ = keys.nextNavigationSpeech()
        #expect(keys.navigate("read-all", id: 3)?.event == "ok")
        var heard: [(Int, String)] = []
        for _ in 0..<3 {
            guard let speech = keys.nextNavigationSpeech() else { break }
            #expect(speech.success)
            heard.append((speech.seq, speech.text))
        }
        #expect(heard.map(\.1) == ["Alpha", "Beta", "Gamma"])
        for (seq, text) in heard { try expectPlayed(daemon, seq: seq, text) }
        _ = app.roundTrip(id: 50)
        #expect(
            app.received.filter { $0.event == "focused" }.map { $0["element"]?.stringValue ?? "" }.suffix(2) == [
                "b", "c",
            ])

        _ = keys.navigate("first", id: 4)
        _ = keys.nextNavigationSpeech()
        #expect(keys.navigate("read-all", id: 5)?.event == "ok")
        try #require(keys.waitFor { $0.event == "speech" && $0["state"] == "started" && $0["text"] == "Alpha" } != nil)
        #expect(keys.navigate("escape", id: 6)?.event == "ok")
        let ended = try #require(
            keys.waitFor { $0.event == "speech" && $0["state"] == "finished" && $0["client"] == "navigation" })
        #expect(ended["reason"] == .string("interrupted"))
        #expect(keys.roundTrip(id: 7)?["speaking"] == .bool(false), "nothing more is read")
    }

    @Test("announcectl one-shots send one navigate each and exit as the rest of announcectl")
    func oneShots() throws {
        let daemon = try DaemonProcess()
        let socket = ["--socket", daemon.socketPath]
        let empty = try AnnouncectlProcess.run(socket + ["next"])
        #expect(empty.status == 1 && empty.stderr.contains("no app has published a screen"))
        let app = try daemon.connect()
        app.send(timerScreen)
        try #require(app.waitForTerminal(id: 100) != nil)
        for command in [
            ["first"], ["next"], ["increment"], ["decrement"], ["last"], ["action", "Undo"], ["rotor", "buttons"],
            ["rotor-previous"], ["activate"], ["escape"], ["magic-tap"], ["read"], ["rotor"], ["rotor-next"],
            ["previous"], ["read-all"],
        ] {
            let result = try AnnouncectlProcess.run(socket + command)
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
        _ = app.roundTrip(id: 50)
        let actions = app.received.filter { $0.event == "action" }.map {
            "\($0["action"]?.stringValue ?? "") \($0["element"]?.stringValue ?? "null")"
        }
        #expect(
            actions == [
                "increment time", "decrement time", "custom reset", "activate start", "escape start", "magic-tap start",
            ])
        _ = try AnnouncectlProcess.run(socket + ["first"])
        let refused = try AnnouncectlProcess.run(socket + ["increment"])
        #expect(refused.status == 1 && refused.stderr.contains("not adjustable"))
        #expect(try AnnouncectlProcess.run(socket + ["action"]).status == 2)
    }

    @Test("announcectl navigate reads keys from a terminal and shows what is spoken")
    func interactive() throws {
        let daemon = try DaemonProcess()
        let app = try daemon.connect()
        app.send(timerScreen)
        try #require(app.waitForTerminal(id: 100) != nil)
        let command = "\(AnnouncectlProcess.executable.path) --socket \(daemon.socketPath) navigate"
        // `script` gives announcectl a pseudo-terminal and copies our keys into it.
        let tool = try AnnouncectlProcess(
            ["-q", "-e", "-c", command, "/dev/null"], executable: URL(fileURLWithPath: "/usr/bin/script"))
        try #require(tool.waitForOutputLine { $0.contains("? lists the keys") } != nil)
        tool.write("\u{1B}[H")
        #expect(tool.waitForOutputLine { $0.contains("» Timer, heading") } != nil)
        tool.write("\u{1B}[C")
        #expect(tool.waitForOutputLine { $0.contains("» Duration, 5 minutes, adjustable") } != nil)
        tool.write("+")
        #expect(
            app.waitFor { $0.event == "action" }?.text == #"{"event":"action","element":"time","action":"increment"}"#)
        tool.write("\r")
        #expect(app.waitFor { $0.event == "action" }?["action"] == .string("activate"))
        tool.write("\u{1B}[D\u{1B}[D")
        #expect(tool.waitForOutputLine { $0.contains("! end of screen") } != nil)
        tool.write("?")
        #expect(tool.waitForOutputLine { $0.contains("Tab") && $0.contains("next rotor") } != nil)
        tool.write("\t")
        #expect(tool.waitForOutputLine { $0.contains("» headings") } != nil)
        tool.write("q")
        let result = tool.finish(timeout: 30)
        #expect(result.status == 0)
    }
}

@Suite("Examples: driven with navigate requests alone", .daemonTimeLimit, .onBlockingThreads, .serialized)
struct ExampleNavigationTests {
    @Test("the task timer publishes its screen; incrementing its time makes it longer and the new value is spoken")
    func taskTimer() throws {
        let daemon = try DaemonProcess()
        let keys = try daemon.connect()
        keys.send(#"{"op":"subscribe","id":1,"events":["focus","speech"]}"#)
        _ = keys.waitFor("ok", id: 1)
        let timer = Process()
        timer.executableURL = DaemonProcess.binDirectory.appendingPathComponent("TaskTimer")
        timer.arguments = ["--seconds", "5"]
        var environment = ProcessInfo.processInfo.environment
        environment["ANNOUNCED_SOCKET"] = daemon.socketPath
        timer.environment = environment
        let input = Pipe()
        timer.standardInput = input
        timer.standardOutput = FileHandle.nullDevice
        try timer.run()
        defer {
            try? input.fileHandleForWriting.close()
            timer.terminate()
            timer.waitUntilExit()
        }
        // Its screen-changed focuses the first stop.
        try #require(keys.waitFor { $0.event == "focus-changed" && $0["to"] == "title" } != nil)
        #expect(keys.roundTrip(id: 2)?["screen"] == .string("TaskTimer"))
        #expect(keys.navigate("next", id: 3)?["focus"] == .string("time"))
        #expect(keys.navigate("increment", id: 4)?.event == "ok")
        // The new value is spoken alone: as a navigation post when the app's update changes it, or
        // as the app's own post when its layout-changed carries it first (the app re-posts its
        // screen, showing the reset button, once its first status says speech is running, and
        // under load that status can arrive after the increment).
        let ten = keys.waitFor(timeout: 30) {
            $0.event == "speech" && $0["state"] == "started" && $0["text"] == "10 seconds"
        }
        let seq = try #require(ten?["seq"]?.integerValue, "\"10 seconds\" was never spoken")
        let finished = keys.waitFor { $0.event == "speech" && $0["state"] == "finished" && $0["seq"] == .integer(seq) }
        #expect(finished?["success"] == .bool(true))
        try expectPlayed(daemon, seq: Int(seq), "10 seconds")
        #expect(keys.navigate("last", id: 5)?["focus"] == .string("reset"))
        #expect(keys.navigate("custom", #","name":"Reset to 1 minute""#, id: 6)?.event == "ok")
        #expect(keys.navigate("previous", id: 7)?.event == "ok")
        #expect(keys.navigate("previous", id: 8)?["focus"] == .string("time"))
        #expect(keys.navigate("read", id: 9)?.event == "ok")
        // The app's update may come before the read (which then says the new time) or after it
        // (the focused time's new value is then spoken alone).
        let sixty = keys.waitFor {
            guard $0["state"] == "started", $0["client"] == "navigation", let text = $0["text"]?.stringValue else {
                return false
            }
            return text == "60 seconds" || text.hasPrefix("Time, 60 seconds")
        }
        #expect(sixty != nil)
    }
}
