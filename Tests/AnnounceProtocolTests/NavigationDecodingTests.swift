// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import Testing

private func decode(_ line: String) -> Result<RequestLine, RequestError> {
    RequestLine.decode(line: Array(line.utf8))
}

private func invalidField(_ line: String) -> String? {
    guard case .failure(let error) = decode(line) else { return nil }
    #expect(error.code == .invalid)
    return error.message
}

@Suite("Screens, navigation and lint on the wire")
struct NavigationDecodingTests {
    @Test("children, children_mode, hidden and actions are read from element objects")
    func elementFields() throws {
        let line = try decode(
            #"{"op":"screen-changed","id":1,"element":null,"elements":[{"id":"row","label":"Message","children_mode":"combine","actions":["Delete","Flag"],"children":[{"id":"from","label":"Anna"},{"id":"unread","traits":["image"],"hidden":true}]}]}"#
        ).get()
        guard case .speech(let post) = line.request, let row = post.elements?.first else {
            Issue.record("not a screen post: \(line)")
            return
        }
        #expect(row.childrenMode == .combine)
        #expect(row.actions == ["Delete", "Flag"])
        #expect(row.children?.map(\.id) == ["from", "unread"])
        #expect(row.children?.last?.hidden == true)
        #expect(row.children?.first?.hidden == false)
        #expect(row.allIDs == ["row", "from", "unread"])
    }

    @Test("children default to contain")
    func defaultMode() throws {
        #expect(Element(id: "a", children: [Element(id: "b")]).effectiveChildrenMode == .contain)
    }

    @Test(
        "a repeated id anywhere in a screen is invalid, naming the id",
        arguments: [
            #"{"op":"screen-changed","elements":[{"id":"a"},{"id":"a"}]}"#,
            #"{"op":"layout-changed","elements":[{"id":"a","children":[{"id":"b"}]},{"id":"c","children":[{"id":"b"}]}]}"#,
            #"{"op":"screen-changed","elements":[{"id":"a","children":[{"id":"a"}]}]}"#,
        ])
    func duplicateIDs(line: String) {
        let message = invalidField(line)
        #expect(message?.contains("repeats the id") == true, "\(String(describing: message))")
    }

    @Test(
        "bad element fields name the field",
        arguments: [
            (#"{"op":"focus","element":{"id":"a","children_mode":"merge"}}"#, "element.children_mode"),
            (#"{"op":"focus","element":{"id":"a","hidden":"yes"}}"#, "element.hidden"),
            (#"{"op":"focus","element":{"id":"a","actions":["Delete","Delete"]}}"#, "element.actions"),
            (#"{"op":"focus","element":{"id":"a","actions":[""]}}"#, "element.actions"),
            (#"{"op":"focus","element":{"id":"a","children":{"id":"b"}}}"#, "element.children"),
            (#"{"op":"focus","element":{"id":"a","children":[{"label":"no id"}]}}"#, "element.children[0].id"),
        ])
    func badElementFields(line: String, field: String) {
        let message = invalidField(line)
        #expect(message?.hasPrefix("`\(field)`") == true, "\(String(describing: message))")
    }

    @Test(
        "custom rotors must name elements of the screen, with names of their own",
        arguments: [
            (#"{"op":"screen-changed","rotors":[{"name":"Unread","elements":["a"]}]}"#, "`rotors` needs `elements`"),
            (
                #"{"op":"screen-changed","elements":[{"id":"a"}],"rotors":[{"name":"Unread","elements":["zz"]}]}"#,
                "not among the screen's elements"
            ),
            (
                #"{"op":"screen-changed","elements":[{"id":"a"}],"rotors":[{"name":"headings","elements":["a"]}]}"#,
                "already a rotor's name"
            ),
            (
                #"{"op":"screen-changed","elements":[{"id":"a"}],"rotors":[{"name":"","elements":["a"]}]}"#,
                "`rotors[0].name`"
            ),
            (#"{"op":"screen-changed","elements":[{"id":"a"}],"rotors":[{"name":"U"}]}"#, "`rotors[0].elements`"),
        ])
    func badRotors(line: String, expected: String) {
        let message = invalidField(line)
        #expect(message?.contains(expected) == true, "\(String(describing: message))")
    }

    @Test("navigate reads its action, rotor and name", arguments: NavigationAction.allCases)
    func navigateActions(action: NavigationAction) throws {
        let name = action == .custom ? #","name":"Delete""# : ""
        let line = try decode(#"{"op":"navigate","id":3,"action":"\#(action.rawValue)""# + name + "}").get()
        #expect(line.request == .navigate(NavigateRequest(action, name: action == .custom ? "Delete" : nil)))
    }

    @Test(
        "navigate without a known action, or custom without a name, is invalid",
        arguments: [
            (#"{"op":"navigate","id":1}"#, "`action` is required"),
            (#"{"op":"navigate","id":1,"action":"jump"}"#, "`action` must be one of"),
            (#"{"op":"navigate","id":1,"action":"custom"}"#, "`name` is required"),
            (#"{"op":"navigate","id":1,"action":"rotor-select","rotor":""}"#, "`rotor` must not be empty"),
        ])
    func badNavigate(line: String, expected: String) {
        let message = invalidField(line)
        #expect(message?.hasPrefix(expected) == true, "\(String(describing: message))")
    }

    @Test("update keeps absent fields, clears null ones and replaces given ones")
    func updateFields() throws {
        let line = try decode(#"{"op":"update","id":4,"element":{"id":"s","value":"60 percent","hint":null}}"#).get()
        guard case .update(let update) = line.request else {
            Issue.record("not an update: \(line)")
            return
        }
        let before = Element(
            id: "s", label: "Volume", value: "50 percent", traits: [.adjustable], hint: "Adjusts the volume.")
        let after = update.applied(to: before)
        #expect(after == Element(id: "s", label: "Volume", value: "60 percent", traits: [.adjustable], hint: nil))
    }

    @Test(
        "update needs an element with an id",
        arguments: [
            #"{"op":"update","id":1}"#,
            #"{"op":"update","id":1,"element":{"label":"x"}}"#,
        ])
    func badUpdate(line: String) {
        #expect(invalidField(line)?.contains("`element") == true)
    }

    @Test("hello's lint flag")
    func helloLint() throws {
        #expect(
            try decode(#"{"op":"hello","client":"app","lint":true}"#).get().request == .hello(client: "app", lint: true)
        )
        #expect(invalidField(#"{"op":"hello","lint":"yes"}"#)?.hasPrefix("`lint`") == true)
    }
}
