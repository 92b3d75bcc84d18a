// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import Glibc
import TestSupport
import Testing

@Suite("announcectl against the real daemon", .daemonTimeLimit, .onBlockingThreads)
struct AnnouncectlTests {
    @Test("say --wait prints spoken and exits 0; without --wait it exits 0 once queued")
    func saySpoken() throws {
        let daemon = try DaemonProcess()
        let watcher = try speechWatcher(daemon)
        let waited = try announcectl(daemon, "say", "Download", "complete", "--wait")
        #expect(waited.status == 0)
        #expect(waited.stdout == "spoken\n")
        #expect(watcher.waitFor { $0["state"] == .string("started") }?["text"] == .string("Download complete"))
        #expect(watcher.waitFor { $0["state"] == .string("started") }?["client"] == nil)

        let queued = try announcectl(daemon, "say", "Queued only")
        #expect(queued.status == 0)
        #expect(queued.stdout.isEmpty)
        #expect(watcher.waitFor { $0["state"] == .string("finished") && $0["success"] == .bool(true) } != nil)
    }

    @Test("the socket comes from ANNOUNCED_SOCKET when --socket is absent")
    func socketFromEnvironment() throws {
        let daemon = try DaemonProcess()
        let result = try AnnouncectlProcess.run(
            ["say", "--wait", "Hi"], environment: ["ANNOUNCED_SOCKET": daemon.socketPath])
        #expect(result.status == 0)
        #expect(result.stdout == "spoken\n")
    }

    @Test("no daemon: exit 1, naming the socket it tried and how to start the daemon")
    func unreachable() throws {
        let path = DaemonProcess.makeTemporaryDirectory().appendingPathComponent("none.sock").path
        for arguments in [["say", "--wait", "Hi"], ["say", "Hi"], ["status"], ["mute"], ["monitor"]] {
            let result = try AnnouncectlProcess.run(["--socket", path] + arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr.contains(path), "\(arguments): \(result.stderr)")
            #expect(
                result.stderr.contains("announced &")
                    && result.stderr.contains("systemctl --user start announced.socket"))
        }
    }

    @Test(
        "usage errors exit 2 with a message",
        arguments: [
            ["say"], ["say", "--rate", "10", "Hi"], ["say", "--priority", "urgent", "Hi"], ["bogus"],
            ["set"], ["set", "--volume", "500"], ["focus", "--label", "Save"],
            ["focus", "--id", "a", "--trait", "round"],
        ])
    func usageErrors(arguments: [String]) throws {
        let result = try AnnouncectlProcess.run(["--socket", "/nonexistent/announced.sock"] + arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains("Error:") || result.stderr.contains("Usage:"))
    }

    @Test("muted: --wait prints muted and exits 3; status shows it; unmute speaks again")
    func muted() throws {
        let daemon = try DaemonProcess()
        #expect(try announcectl(daemon, "mute").status == 0)
        let status = try announcectl(daemon, "status", "--json")
        #expect(status.status == 0)
        let report = try StatusReport(
            try #require(try JSONParser.parse(status.stdout.trimmingCharacters(in: .newlines)).objectValue))
        #expect(report.muted && !report.running)
        let human = try announcectl(daemon, "status")
        #expect(human.stdout.contains("speech       muted"))
        #expect(human.stdout.contains("socket       \(daemon.socketPath)"))

        let said = try announcectl(daemon, "say", "--wait", "Nobody hears this")
        #expect(said.status == 3)
        #expect(said.stdout == "muted\n")
        #expect(try announcectl(daemon, "unmute").status == 0)
        #expect(try announcectl(daemon, "say", "--wait", "Back").stdout == "spoken\n")
    }

    @Test("interrupted by another post: prints how far it got and exits 3")
    func interrupted() throws {
        let daemon = try DaemonProcess()
        let watcher = try speechWatcher(daemon)
        let long = try AnnouncectlProcess(["--socket", daemon.socketPath, "say", "--wait", interruptibleText])
        try #require(watcher.waitFor { $0["state"] == .string("started") } != nil)
        #expect(try announcectl(daemon, "say", "Stop").status == 0)
        let result = long.finish()
        #expect(result.status == 3)
        let pattern = #/interrupted after (\d+) of (\d+) characters\n/#
        let match = try #require(result.stdout.wholeMatch(of: pattern), "\(result.stdout)")
        #expect(Int(match.2) == interruptibleText.unicodeScalars.count)
        #expect(Int(match.1)! < interruptibleText.unicodeScalars.count)
    }

    @Test("stop cancels a waiting say: cancelled, exit 3")
    func stopped() throws {
        let daemon = try DaemonProcess()
        let watcher = try speechWatcher(daemon)
        let long = try AnnouncectlProcess(["--socket", daemon.socketPath, "say", "--wait", interruptibleText])
        try #require(watcher.waitFor { $0["state"] == .string("started") } != nil)
        #expect(try announcectl(daemon, "stop").status == 0)
        let result = long.finish()
        #expect(result.status == 3)
        #expect(result.stdout == "cancelled\n")
    }

    @Test("an error answer exits 1 with the daemon's message")
    func daemonError() throws {
        let daemon = try DaemonProcess()
        let result = try announcectl(daemon, "say", "--wait", "--voice", "no-such-voice", "Hi")
        #expect(result.status == 1)
        #expect(result.stderr.contains("`voice`"))
        let voice = try announcectl(daemon, "set", "--voice", "no-such-voice")
        #expect(voice.status == 1)
        #expect(voice.stderr.contains("voice"))
    }

    @Test(
        "say - speaks each line of standard input in order; with --wait one result per line", arguments: [true, false])
    func standardInput(wait: Bool) throws {
        let daemon = try DaemonProcess()
        let watcher = try speechWatcher(daemon)
        let result = try announcectl(
            daemon, "say", "-", wait ? "--wait" : "--queue", stdin: "First line\n\nSecond line\nThird line\n")
        #expect(result.status == 0)
        #expect(result.stdout == (wait ? "spoken\nspoken\nspoken\n" : ""))
        var spoken: [String] = []
        while spoken.count < 3, let line = watcher.waitFor(timeout: 30, { $0["state"] == .string("started") }) {
            spoken.append(line["text"]?.stringValue ?? "")
            #expect(watcher.waitFor { $0["state"] == .string("finished") }?["success"] == .bool(true))
        }
        #expect(spoken == ["First line", "Second line", "Third line"])
    }

    @Test("focus, screen-changed and layout-changed post what they say")
    func elementPosts() throws {
        let daemon = try DaemonProcess()
        let watcher = try speechWatcher(daemon)
        let focus = try announcectl(
            daemon, "focus", "--id", "save", "--label", "Save", "--trait", "button", "--hint", "Saves the document.",
            "--wait")
        #expect(focus.status == 0 && focus.stdout == "spoken\n")
        #expect(
            watcher.waitFor { $0["state"] == .string("started") }?["text"]
                == .string("Save, button. Saves the document."))
        let screen = try announcectl(daemon, "screen-changed", "Settings", "--wait")
        #expect(screen.status == 0 && screen.stdout == "spoken\n")
        #expect(watcher.waitFor { $0["state"] == .string("started") }?["text"] == .string("Settings"))
        let layout = try announcectl(daemon, "layout-changed", "Reloaded", "--wait")
        #expect(layout.status == 0 && layout.stdout == "spoken\n")
    }

    @Test("set changes the defaults status reports")
    func set() throws {
        let daemon = try DaemonProcess()
        #expect(try announcectl(daemon, "set", "--rate", "300", "--pitch", "20", "--volume", "80").status == 0)
        let status = try announcectl(daemon, "status")
        #expect(status.stdout.contains("rate         300 words per minute"))
        #expect(status.stdout.contains("pitch        20"))
        #expect(status.stdout.contains("volume       80"))
    }

    @Test("monitor prints another client's post as it starts and ends, and status changes")
    func monitor() throws {
        let daemon = try DaemonProcess()
        let monitor = try AnnouncectlProcess(["--socket", daemon.socketPath, "monitor"])
        try #require(monitor.waitForOutputLine { $0.hasPrefix("status: speech on") } != nil)
        let mail = try daemon.connect()
        mail.send(#"{"op":"hello","client":"mail"}"#, announce(1, "3 new messages"))
        #expect(mail.waitForTerminal(id: 1)?["success"] == .bool(true))
        #expect(
            monitor.waitForOutputLine { $0.hasPrefix("mail #") && $0.hasSuffix("started (espeak-ng): 3 new messages") }
                != nil)
        #expect(monitor.waitForOutputLine { $0.hasPrefix("mail #") && $0.hasSuffix("spoken: 3 new messages") } != nil)
        mail.send(#"{"op":"layout-changed","id":3,"element":null}"#)
        #expect(monitor.waitForOutputLine { $0.hasPrefix("mail #") && $0.hasSuffix(" nothing to speak") } != nil)
        mail.send(#"{"op":"set","id":2,"muted":true}"#)
        #expect(monitor.waitForOutputLine { $0.hasPrefix("status: speech muted") } != nil)
        kill(monitor.process.processIdentifier, SIGINT)
        _ = monitor.finish()
    }

    @Test("pause holds a post said with --wait, status and monitor show it, resume lets it finish")
    func pauseAndResume() throws {
        let daemon = try DaemonProcess()
        let monitor = try AnnouncectlProcess(["--socket", daemon.socketPath, "monitor"])
        try #require(monitor.waitForOutputLine { $0.hasPrefix("status: speech on") } != nil)
        let watcher = try speechWatcher(daemon)
        let long = try AnnouncectlProcess(["--socket", daemon.socketPath, "say", "--wait", interruptibleText])
        try #require(watcher.waitFor { $0["state"] == .string("started") } != nil)
        let paused = try announcectl(daemon, "pause")
        #expect(paused.status == 0)
        #expect(paused.stdout.isEmpty && paused.stderr.isEmpty)
        #expect(monitor.waitForOutputLine { $0.hasPrefix("status: speech paused") } != nil)
        let status = try announcectl(daemon, "status")
        #expect(status.stdout.contains("speech       paused"), "\(status.stdout)")
        #expect(try announcectl(daemon, "pause").status == 0, "pause while paused is fine")
        #expect(try announcectl(daemon, "resume").status == 0)
        #expect(monitor.waitForOutputLine { $0.hasPrefix("status: speech on") } != nil)
        let result = long.finish()
        #expect(result.status == 0)
        #expect(result.stdout == "spoken\n")
        #expect(try announcectl(daemon, "resume").status == 0, "resume while not paused is fine")
        kill(monitor.process.processIdentifier, SIGINT)
        _ = monitor.finish()
    }

    @Test("monitor --json prints the daemon's lines")
    func monitorJSON() throws {
        let daemon = try DaemonProcess()
        let monitor = try AnnouncectlProcess(["--socket", daemon.socketPath, "monitor", "--json"])
        let mail = try daemon.connect()
        mail.send(#"{"op":"hello","client":"mail"}"#)
        // The monitor may not have subscribed yet: post until it shows one (a failure guard bounds it).
        var seen: String?
        for id in 1...20 where seen == nil {
            mail.send(announce(id, "Ping"))
            mail.waitForTerminal(id: id)
            seen = monitor.waitForOutputLine(timeout: 1) { $0.contains(#""state":"finished""#) }
        }
        let line = try #require(seen)
        #expect(
            try Event(line: Array(line.utf8))
                == .speech(.finished(seq: try #require(seqOf(line)), client: "mail", termination: .success)))
        kill(monitor.process.processIdentifier, SIGINT)
        _ = monitor.finish()
    }

    @Test("shell completions come from ArgumentParser")
    func completions() throws {
        let result = try AnnouncectlProcess.run(["--generate-completion-script", "bash"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("announcectl"))
        #expect(result.stdout.contains("screen-changed"))
    }
}

private func seqOf(_ line: String) -> UInt64? {
    (try? JSONParser.parse(line))?.objectValue?["seq"]?.integerValue.flatMap { UInt64(exactly: $0) }
}
