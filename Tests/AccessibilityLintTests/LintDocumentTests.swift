// SPDX-License-Identifier: GPL-3.0-or-later
import AccessibilityLint
import AnnounceProtocol
import Testing

@Suite("Lint: the documents announcectl lint reads")
struct LintDocumentTests {
    func document(_ text: String) throws(LintDocumentError) -> LintDocument {
        try LintDocument(bytes: Array(text.utf8))
    }

    @Test("an element, an array, a screen-changed request (its element once), pretty-printed or not")
    func shapes() throws {
        #expect(try document(#"{"id":"a","label":"A"}"#).elements.map(\.id) == ["a"])
        #expect(try document("[\n  {\"id\":\"a\"},\n  {\"id\":\"b\"}\n]\n").elements.map(\.id) == ["a", "b"])
        let screen = try document(#"{"op":"screen-changed","element":{"id":"b"},"elements":[{"id":"a"},{"id":"b"}]}"#)
        #expect(screen.elements.map(\.id) == ["a", "b"])
        let layout = try document(#"{"op":"layout-changed","element":{"id":"c","label":"C"},"elements":[{"id":"a"}]}"#)
        #expect(layout.elements.map(\.id) == ["c", "a"])
    }

    @Test("the request's lang, else its voice, picks the language; English-only rules follow it")
    func language() throws {
        let element = #"{"id":"a","label":"Speichern button","traits":["button"]}"#
        #expect(try document(#"{"op":"screen-changed","lang":"de","elements":[\#(element)]}"#).findings.isEmpty)
        #expect(try document(#"{"op":"screen-changed","voice":"de","elements":[\#(element)]}"#).findings.isEmpty)
        #expect(
            try document(#"{"op":"screen-changed","lang":"en-US","voice":"de","elements":[\#(element)]}"#).findings.map(
                \.rule) == [.labelHasType])
        #expect(try document(element).findings.map(\.rule) == [.labelHasType], "a bare element is English")
    }

    @Test(
        "bad documents say what is wrong and what to give",
        arguments: [
            ("", "not valid JSON"), ("{\"id\":", "not valid JSON"), ("42", "a JSON number"),
            ("[{\"id\":\"a\"}, 3]", "`[1]` must be an object"),
            ("{\"label\":\"A\"}", "`element.id` is required"), ("{\"op\":\"status\"}", "`op` \"status\""),
            ("{\"op\":\"screen-changed\",\"rate\":1}", "`rate`"),
        ])
    func badDocuments(text: String, problem: String) {
        #expect {
            _ = try document(text)
        } throws: { error in
            let description = "\(error)"
            return description.contains(problem)
                && description.hasSuffix(
                    "give a JSON element object, an array of element objects, or a `screen-changed` request with `elements`"
                )
        }
    }
}
