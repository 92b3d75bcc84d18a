import AnnounceProtocol
import Testing

// SPDX-License-Identifier: GPL-3.0-or-later
@testable import AnnounceCore

@MainActor
@Suite("Reading order and focus stops")
struct ReadingOrderTests {
    func stops(_ elementsJSON: String) throws -> [FocusStop] {
        let line = #"{"op":"screen-changed","elements":\#(elementsJSON)}"#
        let request = try RequestLine.decode(line: Array(line.utf8)).get()
        guard case .speech(let post) = request.request, let elements = post.elements else {
            Issue.record("not a screen post")
            return []
        }
        return Screen.stops(of: elements)
    }

    @Test("siblings are read by sort_priority, higher first, ties in array order, at every level")
    func sortPriority() throws {
        let result = try stops(
            #"""
            [{"id":"a","label":"A"},{"id":"b","label":"B","sort_priority":5},{"id":"c","label":"C"},
             {"id":"list","children":[{"id":"l1","label":"One"},{"id":"l2","label":"Two","sort_priority":1}],"sort_priority":-1},
             {"id":"d","label":"D","sort_priority":5}]
            """#)
        #expect(result.map(\.id) == ["b", "d", "a", "c", "l2", "l1"])
    }

    @Test("contain: the container is no stop, its children are stops in its place")
    func contain() throws {
        let result = try stops(
            #"[{"id":"top","label":"Top"},{"id":"row","label":"Row","children_mode":"contain","children":[{"id":"x","label":"X"},{"id":"y","label":"Y"}]},{"id":"end","label":"End"}]"#
        )
        #expect(result.map(\.id) == ["top", "x", "y", "end"])
    }

    @Test("contain is the default when children are given")
    func containDefault() throws {
        let result = try stops(#"[{"id":"row","label":"Row","children":[{"id":"x","label":"X"}]}]"#)
        #expect(result.map(\.id) == ["x"])
    }

    @Test(
        "combine: one stop speaking its label, each child's text without hints, then its hint or the first child's; traits are the union"
    )
    func combine() throws {
        let result = try stops(
            #"""
            [{"id":"row","label":"Message from Anna","children_mode":"combine","children":[
              {"id":"subject","label":"Lunch","hint":"Opens the message."},
              {"id":"flag","label":"Flag","traits":["button"],"hint":"Flags it."},
              {"id":"secret","label":"Hidden part","hidden":true}]}]
            """#)
        #expect(result.map(\.id) == ["row"])
        #expect(result[0].spokenText(language: "en") == "Message from Anna, Lunch, Flag, button. Opens the message.")
        #expect(result[0].element.traits.contains(.button))
        let own = try stops(
            #"[{"id":"row","label":"Row","hint":"Own hint.","children_mode":"combine","children":[{"id":"c","label":"C","hint":"Child hint."}]}]"#
        )
        #expect(own[0].spokenText(language: "en") == "Row, C. Own hint.")
    }

    @Test("combine speaks trait names in the speech language")
    func combineLanguage() throws {
        let result = try stops(
            #"[{"id":"row","children_mode":"combine","children":[{"id":"b","label":"Speichern","traits":["button"]}]}]"#
        )
        #expect(result[0].spokenText(language: "de") == "Speichern, Taste")
    }

    @Test("ignore: one stop spoken from its own fields; its children are no stops")
    func ignore() throws {
        let result = try stops(
            #"[{"id":"chart","label":"Sales chart","value":"Rising","children_mode":"ignore","children":[{"id":"bar","label":"Bar"}]}]"#
        )
        #expect(result.map(\.id) == ["chart"])
        #expect(result[0].spokenText(language: "en") == "Sales chart, Rising")
    }

    @Test("hidden: neither a stop nor spoken, with its children")
    func hidden() throws {
        let result = try stops(
            #"[{"id":"a","label":"A"},{"id":"h","label":"H","hidden":true,"children":[{"id":"hc","label":"In hidden"}]},{"id":"b","label":"B"}]"#
        )
        #expect(result.map(\.id) == ["a", "b"])
    }

    @Test("status reports the screen's owner and its number of stops; screen-changed with null speaks the first stop")
    func statusAndFirstStop() {
        let h = Harness()
        h.send(#"{"op":"hello","id":1,"client":"mail"}"#, from: 1)
        h.send(
            #"{"op":"screen-changed","id":2,"element":null,"elements":[{"id":"box","children":[{"id":"x","label":"First inside"}]},{"id":"y","label":"Second","hidden":true},{"id":"z","label":"Third"}]}"#
        )
        #expect(h.lastSpoken == "First inside")
        h.send(#"{"op":"status","id":3}"#, from: 3)
        let status = h.sink(3).lines.last ?? ""
        #expect(status.contains(#""screen":"mail","stops":2"#))
    }

    @Test("hello lists the navigation feature")
    func helloFeatures() {
        let h = Harness()
        h.send(#"{"op":"hello","id":1,"client":"keys"}"#, from: 3)
        #expect(h.sink(3).lines.last?.contains(#""features":["navigation""#) == true)
    }
}
