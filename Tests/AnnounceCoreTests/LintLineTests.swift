import AnnounceProtocol
import Testing

// SPDX-License-Identifier: GPL-3.0-or-later
@testable import AnnounceCore

@MainActor
@Suite("Lint lines for connections that ask for them")
struct LintLineTests {
    /// The `lint` lines `sink` received, as `ID RULE`.
    func lintLines(_ sink: RecordingSink) -> [String] {
        sink.received.compactMap { event in
            guard case .lint(let element, let rule, _) = event else { return nil }
            return "\(element) \(rule)"
        }
    }

    @Test("hello lists the lint feature and the flag turns the lines on for that connection only")
    func helloAndFlag() throws {
        let harness = Harness()
        harness.send(#"{"op":"hello","id":1,"client":"app","lint":true}"#, from: 1)
        let answer = try #require(harness.sink(1).received.first)
        guard case .ok(_, let fields) = answer else {
            Issue.record("not ok: \(answer)")
            return
        }
        #expect(fields["features"]?.arrayValue?.contains(.string("lint")) == true)

        let post = #"{"op":"focus","element":{"id":"save","label":"save.","traits":["button"],"hint":"Saves it"}}"#
        harness.send(post, from: 1)
        harness.send(post, from: 2)
        #expect(lintLines(harness.sink(1)) == ["save label-capitalized", "save label-period", "save hint-period"])
        #expect(lintLines(harness.sink(2)) == [], "no lines without lint in hello")
        harness.send(#"{"op":"hello","lint":false}"#, from: 1)
        harness.sink(1).clear()
        harness.send(post, from: 1)
        #expect(lintLines(harness.sink(1)) == [], "a later hello without lint turns them off")
    }

    @Test("every posting request: focus, screen-changed and layout-changed elements, children included")
    func everyPost() {
        let harness = Harness()
        harness.send(#"{"op":"hello","lint":true}"#)
        harness.send(
            #"{"op":"screen-changed","id":2,"elements":[{"id":"bar","children":[{"id":"play","traits":["button"]}]},{"id":"vol","label":"Volume","traits":["adjustable"]}]}"#
        )
        #expect(lintLines(harness.sink(1)) == ["play missing-label", "vol adjustable-no-value"])
        harness.sink(1).clear()
        harness.send(
            #"{"op":"layout-changed","element":{"id":"vol","label":"Volume","value":"5","traits":["adjustable"],"hint":"Swipe to adjust."}}"#
        )
        #expect(lintLines(harness.sink(1)) == ["vol hint-imperative", "vol hint-gesture"])
        // The screen-changed speaks its first stop ("play": "button"); the layout-changed
        // interrupts it.
        harness.engineAborts()
        // Speech is unaffected: the element is spoken as without lint.
        #expect(harness.speakingText == "Volume, 5, adjustable. Swipe to adjust.")
        #expect(
            harness.sink(1).received.allSatisfy { $0.requestID == nil || $0.requestID == 2 }, "lint lines carry no id")
    }

    @Test("English-only rules follow the post's language")
    func language() {
        let harness = Harness()
        harness.send(#"{"op":"hello","lint":true}"#)
        harness.send(
            #"{"op":"focus","lang":"de","element":{"id":"x","label":"Speichern button","traits":["button"],"hint":"Tippe hier"}}"#
        )
        #expect(lintLines(harness.sink(1)) == ["x hint-period"])
        harness.sink(1).clear()
        harness.send(#"{"op":"focus","lang":"en-GB","element":{"id":"x","label":"Save button","traits":["button"]}}"#)
        #expect(lintLines(harness.sink(1)) == ["x label-has-type"])
    }

    @Test("sendLint(for:) lints elements given by other requests (update)")
    func elementsHook() {
        let harness = Harness()
        harness.send(#"{"op":"hello","lint":true}"#)
        harness.dispatcher.transaction { dispatcher in
            dispatcher.sendLint(for: [Element(id: "u", label: "Play.", traits: [.button])], to: 1)
            dispatcher.sendLint(for: [Element(id: "u", label: "Play.", traits: [.button])], to: 2)
        }
        harness.turns.run()
        #expect(lintLines(harness.sink(1)) == ["u label-period"])
        #expect(lintLines(harness.sink(2)) == [])
    }
}
