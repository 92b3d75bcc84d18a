import AnnounceProtocol
import TestSupport
import Testing

// SPDX-License-Identifier: GPL-3.0-or-later
@testable import AnnounceCore

@MainActor
@Suite("navigate: moving the focus")
struct NavigationMoveTests {
    @Test(
        "next without a focus starts at the first stop, speaks it, tells the owner and subscribers, and answers the focus"
    )
    func nextFromNothing() {
        let h = Harness()
        h.send(
            #"{"op":"screen-changed","id":1,"element":"Documents","elements":[{"id":"a","label":"Save","traits":["button"],"hint":"Saves the document."},{"id":"b","label":"Open"}]}"#
        )
        h.send(#"{"op":"subscribe","id":1,"events":["focus","speech"]}"#, from: 2)
        #expect(h.dispatcher.focus == nil, "a screen-changed with a string focuses nothing")
        h.sink(1).clear()
        #expect(h.navigate("next") == okLine(focus: "a"))
        h.engineHonoursAborts()
        #expect(h.lastSpoken == "Save, button. Saves the document.")
        #expect(h.sink(1).received.filter { if case .focused = $0 { true } else { false } } == [.focused(element: "a")])
        #expect(h.sink(2).received.contains(.focusChanged(from: nil, to: "a", owner: false)))
        h.engineStarts()
        #expect(
            h.sink(2).received.contains(
                .speech(
                    .started(
                        seq: h.dispatcher.speaking?.seq ?? 0, client: "navigation",
                        text: "Save, button. Saves the document."))))
        #expect(h.navigate("next") == okLine(focus: "b"))
        #expect(
            h.sink(1).received.filter { if case .finished = $0 { false } else { true } } == [
                .focused(element: "a"), .unfocused(element: "a"), .focused(element: "b"),
            ])
        #expect(
            h.sink(3).received.allSatisfy { if case .focused = $0 { false } else { true } },
            "the navigator is not the owner")
    }

    @Test("next at the last stop is end-of-screen: the focus stays and the boundary earcon plays")
    func nextAtEnd() {
        let h = Harness()
        h.send(#"{"op":"screen-changed","id":1,"elements":[{"id":"a","label":"A"},{"id":"b","label":"B"}]}"#)
        h.navigate("last")
        h.speakEverything()
        let before = h.backend.spoken.count
        #expect(errorCode(h.navigate("next")) == "end-of-screen")
        #expect(h.dispatcher.focus?.element == "b")
        let earcon = h.backend.spoken.dropFirst(before).first
        #expect(earcon?.earcon == true && earcon?.earconSound == .boundary && earcon?.text == "")
    }

    @Test("without earcons, end-of-screen plays nothing")
    func endWithoutEarcon() {
        let h = Harness { $0.earcons = false }
        h.send(#"{"op":"screen-changed","id":1,"elements":[{"id":"a","label":"A"}]}"#)
        h.navigate("first")
        h.speakEverything()
        let before = h.backend.spoken.count
        #expect(errorCode(h.navigate("previous")) == "end-of-screen")
        h.speakEverything()
        #expect(h.backend.spoken.count == before)
    }

    @Test("previous without a focus starts at the last stop; at the first stop it is end-of-screen")
    func previous() {
        let h = Harness()
        h.send(timerScreen)
        h.unfocus()
        #expect(h.navigate("previous") == okLine(focus: "reset"))
        h.navigate("first")
        #expect(errorCode(h.navigate("previous")) == "end-of-screen")
        #expect(h.dispatcher.focus?.element == "title")
    }

    @Test("first and last move to the ends and speak them")
    func firstLast() {
        let h = Harness()
        h.send(timerScreen)
        #expect(h.navigate("last") == okLine(focus: "reset"))
        h.engineHonoursAborts()
        #expect(h.lastSpoken == "Reset, button")
        #expect(h.navigate("first") == okLine(focus: "title"))
        h.engineHonoursAborts()
        #expect(h.lastSpoken == "Timer, heading")
    }

    @Test("without a screen, every action is no-screen")
    func noScreen() {
        let h = Harness()
        for action in NavigationAction.allCases {
            let extra = action == .custom ? #","name":"Delete""# : ""
            #expect(errorCode(h.navigate(action.rawValue, extra)) == "no-screen", "\(action)")
        }
    }

    @Test("an empty screen is end-of-screen for next")
    func emptyScreen() {
        let h = Harness()
        h.send(#"{"op":"screen-changed","id":1,"elements":[]}"#)
        #expect(errorCode(h.navigate("next")) == "end-of-screen")
    }

    @Test("read speaks the focused stop again; without a focus it is not-found")
    func read() {
        let h = Harness()
        h.send(timerScreen)
        h.unfocus()
        #expect(errorCode(h.navigate("read")) == "not-found")
        h.navigate("next")
        h.speakEverything()
        let count = h.backend.spoken.count
        #expect(h.navigate("read") == okLine(focus: "title"))
        h.engineHonoursAborts()
        #expect(h.backend.spoken.count == count + 1)
        #expect(h.lastSpoken == "Timer, heading")
    }

    @Test("navigation speech interrupts a speaking low post, and replaces earlier navigation speech still waiting")
    func interruptsLow() {
        let h = Harness()
        h.send(timerScreen)
        h.speakEverything()
        h.send(announce(2, "Low news", #","priority":"low""#), from: 2)
        h.engineStarts()
        let lowSeq = h.dispatcher.speaking?.seq ?? 0
        h.navigate("next")
        h.navigate("next", id: 501)
        #expect(h.backend.aborted.contains(lowSeq))
        h.engineHonoursAborts()
        #expect(
            h.speakingText == "Start, button. Starts the timer.",
            "the first move's speech was replaced before it started")
        #expect(
            h.sink(2).terminal(2)
                == .finished(id: 2, seq: lowSeq, termination: .failure(reason: .interrupted, spokenChars: 0)))
    }

    @Test("navigation speech interrupts a default post but never a high one")
    func interruption() {
        let h = Harness()
        h.send(timerScreen)
        h.speakEverything()
        h.send(announce(2, "A default announcement"), from: 2)
        h.engineStarts()
        let defaultSeq = h.dispatcher.speaking?.seq ?? 0
        h.navigate("next")
        #expect(h.backend.aborted.contains(defaultSeq))
        h.engineHonoursAborts()
        #expect(h.lastSpoken == "Duration, 5 minutes, adjustable")
        h.engineStarts()
        h.send(announce(3, "Urgent", #","priority":"high""#), from: 2)
        h.engineHonoursAborts()
        h.engineStarts()
        let highSeq = h.dispatcher.speaking?.seq ?? 0
        #expect(h.speakingText == "Urgent")
        h.navigate("next")
        #expect(!h.backend.aborted.contains(highSeq))
        h.engineFinishes()
        #expect(h.speakingText == "Start, button. Starts the timer.", "navigation speaks after the high post")
    }
}

@MainActor
@Suite("navigate: actions for the owner")
struct NavigationActionTests {
    @Test("activate sends the owner an action line, and nobody else")
    func activate() {
        let h = Harness()
        h.send(timerScreen)
        h.send(#"{"op":"screen-changed","id":1,"elements":[{"id":"other","label":"Other"}]}"#, from: 2)
        h.send(timerScreen, from: 1)
        h.navigate("next")
        h.navigate("next")
        #expect(h.navigate("activate") == okLine(focus: "start"))
        #expect(h.actions(of: 1) == [.action(element: "start", action: .activate, name: nil)])
        #expect(h.actions(of: 2).isEmpty)
        #expect(h.actions(of: 3).isEmpty)
        #expect(h.sink(1).lines.last == #"{"event":"action","element":"start","action":"activate"}"#)
    }

    @Test("activate without a focus is not-found")
    func activateWithoutFocus() {
        let h = Harness()
        h.send(timerScreen)
        h.unfocus()
        #expect(errorCode(h.navigate("activate")) == "not-found")
    }

    @Test("increment and decrement on an adjustable element reach the owner; elsewhere they are not-adjustable")
    func adjust() {
        let h = Harness()
        h.send(timerScreen)
        h.navigate("first")
        #expect(errorCode(h.navigate("increment")) == "not-adjustable")
        #expect(errorCode(h.navigate("decrement")) == "not-adjustable")
        h.navigate("next")
        #expect(h.navigate("increment") == okLine(focus: "time"))
        #expect(h.navigate("decrement") == okLine(focus: "time"))
        #expect(
            h.actions(of: 1) == [
                .action(element: "time", action: .increment, name: nil),
                .action(element: "time", action: .decrement, name: nil),
            ])
    }

    @Test("custom sends a named action of the focused element; another name is not-found")
    func custom() {
        let h = Harness()
        h.send(timerScreen)
        h.navigate("last")
        #expect(h.navigate("custom", #","name":"Undo""#) == okLine(focus: "reset"))
        #expect(h.sink(1).lines.last == #"{"event":"action","element":"reset","action":"custom","name":"Undo"}"#)
        #expect(errorCode(h.navigate("custom", #","name":"Delete""#)) == "not-found")
        h.navigate("first")
        #expect(errorCode(h.navigate("custom", #","name":"Undo""#)) == "not-found")
    }

    @Test("escape and magic-tap reach the owner with the focused element, or null without a focus")
    func escapeAndMagicTap() {
        let h = Harness()
        h.send(timerScreen)
        h.unfocus()
        #expect(h.navigate("escape") == okLine(focus: nil))
        #expect(h.sink(1).lines.last == #"{"event":"action","element":null,"action":"escape"}"#)
        h.navigate("first")
        #expect(h.navigate("magic-tap") == okLine(focus: "title"))
        #expect(h.sink(1).lines.last == #"{"event":"action","element":"title","action":"magic-tap"}"#)
    }
}

@MainActor
@Suite("navigate: rotors")
struct RotorTests {
    @Test(
        "rotor-select without a name visits the available rotors in order, then the custom ones, wrapping, and speaks each name"
    )
    func selectCycle() {
        let h = Harness()
        h.send(timerScreen)
        h.navigate("first")
        var selected: [String] = []
        for _ in 0..<6 {
            let answer = h.navigate("rotor-select")
            h.engineHonoursAborts()
            selected.append(h.lastSpoken ?? "")
            #expect(answer == okLine(focus: "title", rotor: selected.last))
        }
        // `actions` is not available: the focused heading has none.
        #expect(selected == ["headings", "links", "buttons", "form-controls", "Controls", "headings"])
        h.navigate("last")
        h.navigate("rotor-select", #","rotor":"form-controls""#)
        h.navigate("rotor-select")
        h.engineHonoursAborts()
        #expect(h.lastSpoken == "actions", "available once the focused element has actions")
    }

    @Test("rotor-select with a name selects it; an unknown name is not-found")
    func selectNamed() {
        let h = Harness()
        h.send(timerScreen)
        #expect(h.navigate("rotor-select", #","rotor":"Controls""#) == okLine(focus: "title", rotor: "Controls"))
        #expect(errorCode(h.navigate("rotor-select", #","rotor":"Colours""#)) == "not-found")
        #expect(errorCode(h.navigate("rotor-next", "", id: 501)) == nil)
    }

    @Test("rotor-next without a selected rotor is not-found")
    func noRotor() {
        let h = Harness()
        h.send(timerScreen)
        #expect(errorCode(h.navigate("rotor-next")) == "not-found")
    }

    @Test("each built-in rotor moves between its stops in reading order and ends with end-of-screen")
    func builtIn() {
        let h = Harness()
        h.send(
            #"""
            {"op":"screen-changed","id":1,"elements":[
            {"id":"h1","label":"One","traits":["header"]},{"id":"l1","label":"Docs","traits":["link"]},
            {"id":"b1","label":"Save","traits":["button"]},{"id":"s1","label":"Find","traits":["search-field"]},
            {"id":"h2","label":"Two","traits":["header"]},{"id":"t1","label":"Wi-Fi","traits":["toggle"]},
            {"id":"b2","label":"Quit","traits":["button"]},{"id":"a1","label":"Volume","value":"3","traits":["adjustable"]},
            {"id":"l2","label":"More","traits":["link"]}]}
            """#.split(separator: "\n").joined())
        let expected = [
            "headings": ["h1", "h2"], "links": ["l1", "l2"], "buttons": ["b1", "b2"],
            "form-controls": ["s1", "t1", "a1"],
        ]
        for (rotor, ids) in expected {
            h.unfocus()
            h.navigate("rotor-select", #","rotor":"\#(rotor)""#)
            var visited: [String] = []
            while let answer = h.navigate("rotor-next"), errorCode(answer) == nil {
                visited.append(h.dispatcher.focus?.element ?? "")
            }
            #expect(visited == ids, "\(rotor)")
            #expect(errorCode(h.navigate("rotor-next")) == "end-of-screen")
            var back: [String] = []
            while let answer = h.navigate("rotor-previous"), errorCode(answer) == nil {
                back.append(h.dispatcher.focus?.element ?? "")
            }
            #expect(back == ids.reversed().dropFirst().map { $0 }, "\(rotor) backwards")
        }
    }

    @Test("a custom rotor visits its ids in its own order")
    func customRotor() {
        let h = Harness()
        h.send(timerScreen)
        h.navigate("rotor-select", #","rotor":"Controls""#)
        #expect(h.navigate("rotor-next") == okLine(focus: "reset", rotor: "Controls"))
        h.engineHonoursAborts()
        #expect(h.lastSpoken == "Reset, button")
        #expect(h.navigate("rotor-next") == okLine(focus: "time", rotor: "Controls"))
        #expect(errorCode(h.navigate("rotor-next")) == "end-of-screen")
        #expect(h.navigate("rotor-previous") == okLine(focus: "reset", rotor: "Controls"))
    }

    @Test(
        "the actions rotor cycles through the focused element's actions, speaking each, and activate then performs it")
    func actionsRotor() {
        let h = Harness()
        h.send(timerScreen)
        h.navigate("last")
        h.navigate("rotor-select", #","rotor":"actions""#)
        var names: [String] = []
        for _ in 0..<3 {
            #expect(h.navigate("rotor-next") == okLine(focus: "reset", rotor: "actions"), "the focus stays")
            h.engineHonoursAborts()
            names.append(h.lastSpoken ?? "")
        }
        #expect(names == ["Reset all", "Undo", "Reset all"])
        h.navigate("rotor-previous")
        h.engineHonoursAborts()
        #expect(h.lastSpoken == "Undo")
        h.navigate("activate")
        #expect(h.sink(1).lines.last == #"{"event":"action","element":"reset","action":"custom","name":"Undo"}"#)
        h.navigate("first")
        h.navigate("activate")
        #expect(
            h.sink(1).lines.last == #"{"event":"action","element":"title","action":"activate"}"#,
            "a new focus has no chosen action")
        #expect(errorCode(h.navigate("rotor-next")) == "no-actions")
    }
}

@MainActor
@Suite("Screens: the owner stack, update and layout changes")
struct ScreenOwnerTests {
    @Test(
        "the latest screen is current; when its owner disconnects, the previous still-connected owner's screen is current again"
    )
    func ownerStack() {
        let h = Harness()
        h.send(#"{"op":"hello","id":1,"client":"mail"}"#, from: 1)
        h.send(#"{"op":"hello","id":1,"client":"music"}"#, from: 2)
        h.send(#"{"op":"screen-changed","id":1,"elements":[{"id":"m","label":"Inbox"}]}"#, from: 1)
        h.send(
            #"{"op":"screen-changed","id":1,"elements":[{"id":"p","label":"Play"},{"id":"q","label":"Next song"}]}"#,
            from: 2)
        h.send(#"{"op":"status","id":2}"#, from: 3)
        #expect(h.sink(3).lines.last?.contains(#""screen":"music","stops":2"#) == true)
        #expect(h.navigate("first") == okLine(focus: "p"))
        h.dispatcher.closed(2)
        h.turns.run()
        #expect(h.navigate("first") == okLine(focus: "m"))
        #expect(h.sink(1).received.contains(.focused(element: "m")))
        h.dispatcher.closed(1)
        h.turns.run()
        #expect(errorCode(h.navigate("first")) == "no-screen")
    }

    @Test("a layout-changed with elements puts its poster's screen on top")
    func layoutOnTop() {
        let h = Harness()
        h.send(#"{"op":"screen-changed","id":1,"elements":[{"id":"m","label":"Inbox"}]}"#, from: 1)
        h.send(#"{"op":"screen-changed","id":1,"elements":[{"id":"p","label":"Play"}]}"#, from: 2)
        h.send(#"{"op":"layout-changed","id":2,"element":null,"elements":[{"id":"m2","label":"Drafts"}]}"#, from: 1)
        #expect(h.navigate("first") == okLine(focus: "m2"))
    }

    @Test("update by the owner changes the element; a focused value change speaks the new value alone")
    func update() {
        let h = Harness()
        h.send(timerScreen)
        h.navigate("first")
        h.navigate("next")
        h.speakEverything()
        h.send(#"{"op":"update","id":7,"element":{"id":"time","value":"6 minutes"}}"#)
        #expect(h.sink(1).lines.last == #"{"event":"ok","id":7}"#)
        h.engineHonoursAborts()
        #expect(h.lastSpoken == "6 minutes")
        h.speakEverything()
        let count = h.backend.spoken.count
        h.send(#"{"op":"update","id":8,"element":{"id":"start","label":"Pause"}}"#)
        h.speakEverything()
        #expect(h.backend.spoken.count == count, "an element without the focus changes silently")
        h.navigate("next")
        h.engineHonoursAborts()
        #expect(h.lastSpoken == "Pause, button. Starts the timer.")
    }

    @Test("update sends lint lines about the changed element to an owner that asked for them")
    func updateLint() {
        let h = Harness()
        h.send(#"{"op":"hello","id":1,"client":"timer","lint":true}"#)
        h.send(timerScreen)
        h.sink(1).clear()
        h.send(#"{"op":"update","id":7,"element":{"id":"start","label":"Start button"}}"#)
        #expect(
            h.sink(1).received.contains { if case .lint("start", "label-has-type", _) = $0 { true } else { false } })
    }

    @Test(
        "update by anyone but the current owner is forbidden; an unknown id is not-found; the connection keeps working")
    func updateErrors() {
        let h = Harness()
        h.send(timerScreen)
        h.send(#"{"op":"update","id":7,"element":{"id":"time","value":"1 minute"}}"#, from: 3)
        #expect(errorCode(h.sink(3).lines.last) == "forbidden")
        h.send(#"{"op":"update","id":8,"element":{"id":"nope","value":"1"}}"#)
        #expect(errorCode(h.sink(1).lines.last) == "not-found")
        #expect(h.navigate("first") == okLine(focus: "title"))
    }

    @Test("layout-changed with elements keeps the focus on a kept id and speaks its changed value alone")
    func layoutKeepsFocus() {
        let h = Harness()
        h.send(timerScreen)
        h.navigate("first")
        h.navigate("next")
        h.speakEverything()
        h.sink(1).clear()
        h.send(
            #"{"op":"layout-changed","id":9,"element":null,"elements":[{"id":"time","label":"Duration","value":"7 minutes","traits":["adjustable"]},{"id":"start","label":"Start","traits":["button"]}]}"#
        )
        h.engineHonoursAborts()
        #expect(h.lastSpoken == "7 minutes")
        #expect(h.dispatcher.focus?.element == "time")
        #expect(!h.sink(1).received.contains(.unfocused(element: "time")))
        #expect(h.navigate("next") == okLine(focus: "start"))
    }
}

@MainActor
@Suite("navigate: read-all")
struct ReadAllTests {
    @Test("read-all speaks every stop from the focused one to the end, moving the focus as each starts")
    func readsToTheEnd() {
        let h = Harness()
        h.send(timerScreen)
        h.navigate("first")
        h.navigate("next")
        h.speakEverything()
        let before = h.backend.spoken.count
        #expect(errorCode(h.navigate("read-all")) == nil)
        h.engineHonoursAborts()
        var focusAtStart: [String] = []
        while h.dispatcher.speaking != nil {
            h.engineStarts()
            focusAtStart.append(h.dispatcher.focus?.element ?? "")
            h.engineFinishes()
        }
        #expect(
            h.backend.spokenTexts.dropFirst(before).map { $0 } == [
                "Duration, 5 minutes, adjustable", "Start, button. Starts the timer.", "Help, link", "Reset, button",
            ])
        #expect(focusAtStart == ["time", "start", "help", "reset"])
    }

    @Test("any other navigate ends read-all")
    func endedByNavigate() {
        let h = Harness()
        h.send(timerScreen)
        h.speakEverything()
        h.navigate("read-all")
        h.engineHonoursAborts()
        h.engineStarts()
        h.engineFinishes()
        h.engineStarts()
        #expect(h.speakingText == "Duration, 5 minutes, adjustable")
        h.navigate("escape")
        #expect(h.dispatcher.speaking?.endReason == .interrupted)
        h.speakEverything()
        #expect(h.lastSpoken == "Duration, 5 minutes, adjustable", "nothing more is read")
        #expect(h.dispatcher.focus?.element == "time")
    }

    @Test("a speech post by the owner ends read-all, even a queued one")
    func endedByOwnerPost() {
        let h = Harness()
        h.send(timerScreen)
        h.speakEverything()
        h.navigate("read-all")
        h.engineHonoursAborts()
        h.engineStarts()
        h.send(announce(5, "Timer started", #","queue":true"#), from: 1)
        h.speakEverything()
        #expect(h.backend.spokenTexts.suffix(2) == ["Timer, heading", "Timer started"])
    }

    @Test("another client's queued post waits and does not end read-all")
    func notEndedByOthers() {
        let h = Harness()
        h.send(timerScreen)
        h.speakEverything()
        h.navigate("read-all")
        h.engineHonoursAborts()
        h.engineStarts()
        h.send(announce(5, "Mail", #","priority":"low""#), from: 2)
        h.speakEverything()
        #expect(
            h.backend.spokenTexts.suffix(6) == [
                "Timer, heading", "Duration, 5 minutes, adjustable", "Start, button. Starts the timer.", "Help, link",
                "Reset, button", "Mail",
            ])
    }
}
