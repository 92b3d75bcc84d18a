// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import TestSupport
import Testing

/// A screen with the seeds' good Share button and some of their bad examples.
private let seedScreen = #"""
    {"op":"screen-changed","id":2,"elements":[
      {"id":"share","label":"Share","traits":["button"],"hint":"Opens the sharing sheet."},
      {"id":"normal","label":"Normal Button","traits":["button"]},
      {"id":"row","children_mode":"combine","hint":"tap twice to change the switch control status.","children":[
        {"id":"label1","label":"Wi-Fi"},{"id":"switch","value":"off","traits":["toggle"]}]},
      {"id":"stepper","label":"My Step-able Item","traits":["adjustable"]},
      {"id":"reset","traits":["button","image"]}
    ]}
    """#

/// What announcectl prints for `seedScreen`, and what the daemon sends as `lint` lines.
private let seedFindings = [
    "normal: label-has-type: the label \"Normal Button\" names the type \"button\": remove it; the element's traits already tell VoiceOver users what kind of control it is",
    "row: hint-capitalized: the hint \"tap twice to change the switch control status.\" starts with a lowercase letter: begin it with a capital (\"Tap twice to change the switch control status.\")",
    "row: hint-imperative: the hint \"tap twice to change the switch control status.\" starts with \"tap\", not a verb in the third person: say what the element does (\"Plays the song.\", not \"Play the song.\")",
    "row: hint-gesture: the hint \"tap twice to change the switch control status.\" names the gesture \"tap\": say what happens, not how to make it happen; VoiceOver users know the gestures, and keyboard users make none (\"Opens the message.\")",
    "stepper: adjustable-no-value: this adjustable element has no value: give it a value that says its current setting (\"45 percent\", \"3 items\") and update it when it changes",
    "reset: missing-label: this button has no label, so VoiceOver users hear only \"button\": give it a label that says what it is or does (\"Share\", \"Play\")",
]

@Suite("Lint: announcectl lint and the daemon's lint lines", .daemonTimeLimit, .onBlockingThreads)
struct LintTests {
    @Test("announcectl lint FILE: one ID: RULE: MESSAGE line per finding, exit 3")
    func lintFile() throws {
        let file = DaemonProcess.makeTemporaryDirectory().appendingPathComponent("screen.json")
        try Data(seedScreen.utf8).write(to: file)
        let result = try AnnouncectlProcess.run(["lint", file.path])
        #expect(result.status == 3)
        #expect(result.stdout == seedFindings.map { $0 + "\n" }.joined())
        #expect(result.stderr.isEmpty)
    }

    @Test("announcectl lint - (and no FILE) reads an element or an array; clean input exits 0 and prints nothing")
    func lintStandardInput() throws {
        let good = #"{"id":"share","label":"Share","traits":["button"],"hint":"Opens the sharing sheet."}"#
        for arguments in [["lint", "-"], ["lint"]] {
            let clean = try AnnouncectlProcess.run(arguments, stdin: good)
            #expect(clean.status == 0, "\(arguments): \(clean.stderr)")
            #expect(clean.stdout.isEmpty)
        }
        let array = try AnnouncectlProcess.run(["lint", "-"], stdin: "[\(good), {\"id\":\"save\",\"label\":\"save\"}]")
        #expect(array.status == 3)
        #expect(array.stdout.hasPrefix("save: label-capitalized: the label \"save\" starts with a lowercase letter"))
        #expect(array.stdout.split(separator: "\n").count == 1)
    }

    @Test(
        "announcectl lint: bad input exits 2 with what is wrong and what to give",
        arguments: [
            ("[1", "it is not valid JSON"), ("\"Share\"", "it is a JSON string"),
            ("[{\"label\":\"Share\"}]", "`[0].id` is required"),
            ("{\"op\":\"announce\",\"text\":\"Hi\"}", "carries no elements"),
            ("{\"op\":\"focus\",\"element\":{\"id\":\"a\",\"traits\":[\"round\"]}}", "unknown trait \"round\""),
        ])
    func lintBadInput(input: String, problem: String) throws {
        let result = try AnnouncectlProcess.run(["lint"], stdin: input)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(problem), "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "give a JSON element object, an array of element objects, or a `screen-changed` request"))
    }

    @Test("announcectl lint of a missing file exits 2 and names it")
    func lintMissingFile() throws {
        let path = DaemonProcess.makeTemporaryDirectory().appendingPathComponent("none.json").path
        let result = try AnnouncectlProcess.run(["lint", path])
        #expect(result.status == 2)
        #expect(result.stderr.contains(path) && result.stderr.contains("check the path"))
    }

    @Test(
        "the daemon sends the same findings as lint lines to a connection that asked, without id; speech is unaffected")
    func daemonLintLines() throws {
        let daemon = try DaemonProcess()
        let app = try daemon.connect()
        app.send(#"{"op":"hello","id":1,"client":"app","lint":true}"#)
        let hello = try #require(app.waitFor("ok", id: 1))
        #expect(hello["features"]?.arrayValue?.contains(.string("lint")) == true)
        app.send(seedScreen.split(separator: "\n").joined())
        #expect(app.waitFor("started", id: 2)?["text"] == .string("Share, button. Opens the sharing sheet."))
        #expect(app.waitForTerminal(id: 2)?["success"] == .bool(true))
        let lint = app.received.filter { $0.event == "lint" }
        #expect(
            lint.map {
                "\($0["element"]?.stringValue ?? ""): \($0["rule"]?.stringValue ?? ""): \($0["message"]?.stringValue ?? "")"
            } == seedFindings)
        #expect(lint.allSatisfy { $0["id"] == nil })

        // A focus post, and a connection that did not ask.
        let other = try daemon.connect()
        other.send(
            #"{"op":"hello","id":1,"client":"other"}"#,
            #"{"op":"focus","id":2,"element":{"id":"x","label":"Save.","traits":["button"]}}"#)
        #expect(other.waitForTerminal(id: 2)?["event"] == .string("finished"))
        #expect(!other.received.contains { $0.event == "lint" })
        app.send(#"{"op":"focus","id":3,"element":{"id":"x","label":"Save.","traits":["button"]}}"#)
        #expect(app.waitForTerminal(id: 3)?["event"] == .string("finished"))
        #expect(
            app.received.filter { $0.event == "lint" && $0["element"] == .string("x") }.map { $0["rule"] } == [
                .string("label-period")
            ])
    }
}
