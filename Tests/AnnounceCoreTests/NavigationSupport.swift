import AnnounceProtocol

// SPDX-License-Identifier: GPL-3.0-or-later
@testable import AnnounceCore

/// A task timer's screen: a heading, an adjustable duration, two buttons (one with custom
/// actions), a link, and a custom rotor "Controls" listing reset before the duration.
let timerScreen = #"""
    {"op":"screen-changed","id":100,"element":null,"elements":[
    {"id":"title","label":"Timer","traits":["header"]},
    {"id":"time","label":"Duration","value":"5 minutes","traits":["adjustable"]},
    {"id":"start","label":"Start","traits":["button"],"hint":"Starts the timer."},
    {"id":"help","label":"Help","traits":["link"]},
    {"id":"reset","label":"Reset","traits":["button"],"actions":["Reset all","Undo"]}],
    "rotors":[{"name":"Controls","elements":["reset","time"]}]}
    """#.split(separator: "\n").joined()

extension Harness {
    /// Sends `navigate` with `action` (and `extra` fields) from `client` (the navigator, 3, by
    /// default) and returns the answer's line.
    @discardableResult
    func navigate(_ action: String, _ extra: String = "", id: Int = 500, from client: ClientID = 3) -> String? {
        sink(client).clear()
        send(#"{"op":"navigate","id":\#(id),"action":"\#(action)"\#(extra)}"#, from: client)
        return sink(client).received.first { $0.requestID == .integer(Int64(id)) }?.json.jsonText
    }

    /// Lets whatever is speaking or waiting play to the end (a `read-all` reads on).
    func speakEverything() {
        while dispatcher.speaking != nil {
            if dispatcher.speaking?.endReason != nil {
                engineAborts()
            } else {
                engineStarts()
                engineFinishes()
            }
        }
    }

    /// The engine honours every abort asked for, so the newest speech is the one speaking.
    func engineHonoursAborts() {
        while let current = dispatcher.speaking, current.endReason != nil { engineAborts() }
    }

    /// Takes the focus away, as when the focused app's element is gone.
    func unfocus() { dispatcher.transaction { $0.moveFocus(to: nil) } }

    /// The text of the speech the backend was last asked for.
    var lastSpoken: String? { backend.spokenTexts.last }

    /// The `action` lines `client` received.
    func actions(of client: ClientID) -> [Event] {
        sink(client).received.filter { if case .action = $0 { true } else { false } }
    }
}

/// `{"event":"ok","id":500,"focus":F,"rotor":R}` as the daemon writes it.
func okLine(focus: String?, rotor: String? = nil, id: Int = 500) -> String {
    let focusJSON = focus.map { "\"\($0)\"" } ?? "null"
    let rotorJSON = rotor.map { "\"\($0)\"" } ?? "null"
    return #"{"event":"ok","id":\#(id),"focus":\#(focusJSON),"rotor":\#(rotorJSON)}"#
}

/// The code of an `error` line.
func errorCode(_ line: String?) -> String? {
    guard let line, let object = try? JSONParser.parse(line).objectValue, object["event"]?.stringValue == "error" else {
        return nil
    }
    return object["code"]?.stringValue
}
