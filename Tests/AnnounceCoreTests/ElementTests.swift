import AnnounceProtocol
import Testing

// SPDX-License-Identifier: GPL-3.0-or-later
@testable import AnnounceCore

typealias ElementTrait = AnnounceProtocol.Trait

@Suite("Element composition and localization")
struct ElementSpeechTests {
    @Test("label, value, traits, hint in VoiceOver's order")
    func composition() {
        let save = Element(id: "s", label: "Save", traits: [.button], hint: "Saves the document.")
        #expect(save.spokenText(language: "en") == "Save, button. Saves the document.")
        let slider = Element(id: "v", label: "Volume", value: "45 percent", traits: [.adjustable, .staticText])
        #expect(slider.spokenText(language: nil) == "Volume, 45 percent, adjustable")
        #expect(Element(id: "h", hint: "Opens the menu.").spokenText(language: "en") == "Opens the menu.")
        #expect(
            Element(id: "e", label: "  ", traits: [.summaryElement, .playsSound, .updatesFrequently]).spokenText(
                language: "en") == "")
        #expect(
            Element(id: "d", label: "Send", traits: [.button, .notEnabled, .button]).spokenText(language: "en")
                == "Send, button, dimmed")
    }

    @Test(
        "every English trait name the protocol lists",
        arguments: [
            (ElementTrait.button, "button"), (.link, "link"), (.header, "heading"), (.searchField, "search field"),
            (.image, "image"), (.selected, "selected"), (.notEnabled, "dimmed"), (.adjustable, "adjustable"),
            (.keyboardKey, "key"), (.toggle, "switch button"), (.tabBar, "tab"),
        ])
    func englishNames(trait: ElementTrait, name: String) {
        #expect(TraitNames.spokenName(of: trait, language: "en-US") == name)
    }

    @Test(
        "silent traits add nothing",
        arguments: [ElementTrait.staticText, .summaryElement, .playsSound, .updatesFrequently])
    func silentTraits(trait: ElementTrait) {
        for language in ["en", "de", "fr", "es", "zh"] {
            #expect(TraitNames.spokenName(of: trait, language: language) == nil)
        }
    }

    @Test("localized for German, French, Spanish and Mandarin Chinese")
    func localized() {
        let element = Element(id: "s", label: "Teilen", traits: [.button, .selected], hint: "Öffnet das Menü.")
        #expect(element.spokenText(language: "de-AT") == "Teilen, Taste, ausgewählt. Öffnet das Menü.")
        #expect(Element(id: "l", label: "Accueil", traits: [.link]).spokenText(language: "fr") == "Accueil, lien")
        #expect(
            Element(id: "t", label: "Buscar", traits: [.searchField]).spokenText(language: "es-MX")
                == "Buscar, campo de búsqueda")
        #expect(Element(id: "z", label: "分享", traits: [.button]).spokenText(language: "cmn") == "分享, 按钮")
        #expect(Element(id: "z", label: "标题", traits: [.header]).spokenText(language: "zh-Hans") == "标题, 标题")
        #expect(
            Element(id: "x", label: "OK", traits: [.button]).spokenText(language: "sv") == "OK, button",
            "unknown languages use English")
        for language in TraitNames.languages {
            for trait in [
                ElementTrait.button, .link, .header, .searchField, .image, .selected, .notEnabled, .adjustable,
                .keyboardKey, .toggle, .tabBar,
            ] {
                #expect(
                    TraitNames.spokenName(of: trait, language: language)?.isEmpty == false, "\(language) lacks \(trait)"
                )
            }
        }
    }

    @Test("reading order: higher sort_priority first, ties in array order")
    func readingOrder() {
        let elements = [
            Element(id: "a"), Element(id: "b", sortPriority: 2), Element(id: "c", sortPriority: -1),
            Element(id: "d", sortPriority: 2), Element(id: "e", sortPriority: 0),
        ]
        #expect(elements.inReadingOrder().map(\.id) == ["b", "d", "a", "e", "c"])
    }
}

@MainActor
@Suite("Focus, screens and layouts")
struct FocusTests {
    @Test("focus moves the cursor, speaks the element, tells the owners and subscribers")
    func focus() {
        let h = Harness()
        h.send(#"{"op":"subscribe","id":1,"events":["focus"]}"#, from: 3)
        h.send(
            #"{"op":"focus","id":1,"element":{"id":"a","label":"Save","traits":["button"],"hint":"Saves the document."}}"#,
            from: 1)
        #expect(h.backend.spokenTexts == ["Save, button. Saves the document."])
        #expect(h.sink(1).received.contains(.focused(element: "a")))
        h.send(#"{"op":"focus","id":2,"element":{"id":"b","label":"Cancel"}}"#, from: 2)
        #expect(h.sink(1).received.contains(.unfocused(element: "a")))
        #expect(h.sink(2).received.contains(.focused(element: "b")))
        let changes = h.sink(3).received.filter { if case .focusChanged = $0 { true } else { false } }
        #expect(
            changes == [
                .focusChanged(from: nil, to: "a", owner: false), .focusChanged(from: "a", to: "b", owner: false),
            ])
        h.send(#"{"op":"status","id":9}"#, from: 3)
        #expect(h.sink(3).lines.last?.contains(#""focus":"b""#) == true)
    }

    @Test("focus-changed says owner to the element's own connection")
    func ownerFlag() {
        let h = Harness()
        h.send(#"{"op":"subscribe","id":1,"events":["focus"]}"#, from: 1)
        h.send(#"{"op":"focus","id":2,"element":{"id":"mine","label":"Mine"}}"#, from: 1)
        #expect(h.sink(1).received.contains(.focusChanged(from: nil, to: "mine", owner: true)))
    }

    @Test("focus with a string speaks it without moving the cursor")
    func focusString() {
        let h = Harness()
        h.send(#"{"op":"focus","id":1,"element":"Just words"}"#)
        #expect(h.backend.spokenTexts == ["Just words"])
        #expect(h.dispatcher.focus == nil)
    }

    @Test("screen-changed with null and elements speaks and focuses the first in sort order")
    func screenChangedElements() {
        let h = Harness()
        h.send(
            #"{"op":"screen-changed","id":1,"element":null,"elements":[{"id":"x","label":"Body"},{"id":"t","label":"Inbox","traits":["header"],"sort_priority":10}]}"#
        )
        #expect(h.backend.spokenTexts == ["Inbox, heading"])
        #expect(h.dispatcher.focus?.element == "t")
    }

    @Test("an element given by id only is completed from the current screen")
    func completion() {
        let h = Harness()
        h.send(
            #"{"op":"layout-changed","id":1,"element":null,"elements":[{"id":"ok","label":"OK","traits":["button"]}]}"#)
        h.send(#"{"op":"focus","id":2,"element":{"id":"ok"}}"#)
        #expect(h.backend.spokenTexts == ["OK, button"])
    }

    @Test("layout-changed: an element moves focus and speaks, a string speaks, null changes nothing")
    func layoutChanged() {
        let h = Harness()
        h.send(#"{"op":"focus","id":1,"element":{"id":"a","label":"A"}}"#)
        h.engineStarts()
        h.engineFinishes()
        h.send(#"{"op":"layout-changed","id":2,"element":null,"elements":[{"id":"z","label":"Z"}]}"#)
        #expect(h.dispatcher.focus?.element == "a")
        #expect(h.backend.spokenTexts == ["A"])
        h.send(#"{"op":"layout-changed","id":3,"element":"3 results"}"#)
        #expect(h.backend.spokenTexts.last == "3 results")
        h.engineStarts()
        h.engineFinishes()
        h.send(#"{"op":"layout-changed","id":4,"element":{"id":"z","label":"Z"}}"#)
        #expect(h.dispatcher.focus?.element == "z")
    }

    @Test("an element whose spoken text is over max_text_chars is text-too-long")
    func composedTooLong() {
        let h = Harness { $0.maxTextChars = 10 }
        h.send(#"{"op":"focus","id":1,"element":{"id":"a","label":"Save","hint":"Saves the document."}}"#)
        if case .error(1, .textTooLong, _) = h.sink(1).received.last {
        } else {
            Issue.record("expected text-too-long, got \(h.sink(1).lines)")
        }
        #expect(h.dispatcher.focus == nil, "a rejected post changes nothing")
    }

    @Test("lang localizes trait names")
    func langLocalizes() {
        let h = Harness()
        h.send(#"{"op":"focus","id":1,"lang":"de","element":{"id":"a","label":"Speichern","traits":["button"]}}"#)
        #expect(h.backend.spoken.first?.text == "Speichern, Taste")
        #expect(h.backend.spoken.first?.voice == "de")
    }

    @Test("the focus owner disconnecting clears the focus")
    func ownerLeaves() {
        let h = Harness()
        h.send(#"{"op":"focus","id":1,"element":{"id":"a","label":"A"}}"#)
        h.dispatcher.unregister(1)
        #expect(h.dispatcher.focus == nil)
    }

    @Test("blank text is what Unicode calls white space, ASCII or not")
    func blankText() {
        for value in UInt32(0)...0x7F {
            let scalar = Unicode.Scalar(value)!
            #expect(String(scalar).isBlank == scalar.properties.isWhitespace, "U+\(String(value, radix: 16))")
        }
        #expect(" \t\n\u{85}\u{A0}\u{2003}\u{3000}".isBlank)
        #expect("".isBlank)
        #expect(!" \u{200B} ".isBlank, "a zero-width space is not white space")
        #expect(!"  Saved ".isBlank)
    }
}
