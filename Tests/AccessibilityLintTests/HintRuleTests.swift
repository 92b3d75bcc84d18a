// SPDX-License-Identifier: GPL-3.0-or-later
import AccessibilityLint
import AnnounceProtocol
import Testing

@Suite("Lint: hints and values")
struct HintRuleTests {
    @Test("hint-capitalized")
    func hintCapitalized() {
        #expect(rules(Element(id: "x", hint: "opens the menu.")) == [.hintCapitalized])
        #expect(rules(Element(id: "x", hint: "Opens the menu.")) == [])
        #expect(rules(Element(id: "x", hint: "öffnet das Menü."), language: "de") == [.hintCapitalized])
        #expect(
            message(.hintCapitalized, Element(id: "x", hint: "opens the menu."))
                == "the hint \"opens the menu.\" starts with a lowercase letter: begin it with a capital (\"Opens the menu.\")"
        )
    }

    @Test("hint-period")
    func hintPeriod() {
        #expect(rules(Element(id: "x", hint: "Opens the menu")) == [.hintPeriod])
        #expect(rules(Element(id: "x", hint: "Opens the menu!")) == [.hintPeriod])
        #expect(rules(Element(id: "x", hint: "Opens the menu. ")) == [])
        #expect(rules(Element(id: "x", hint: "打开菜单。"), language: "zh") == [], "the ideographic full stop is a period")
        #expect(
            message(.hintPeriod, Element(id: "x", hint: "Opens the menu"))
                == "the hint \"Opens the menu\" does not end with a period: end it with one (\"Opens the menu.\") so VoiceOver reads it as a sentence"
        )
    }

    @Test("hint-imperative: the first word must end in s (English)")
    func hintImperative() {
        #expect(rules(Element(id: "x", hint: "Play the song.")) == [.hintImperative])
        #expect(rules(Element(id: "x", hint: "Plays the song.")) == [])
        #expect(rules(Element(id: "x", hint: "Goes back.")) == [])
        #expect(rules(Element(id: "x", hint: "Öffne das Menü."), language: "de") == [], "English only")
        #expect(
            message(.hintImperative, Element(id: "x", hint: "Play the song."))?.hasPrefix(
                "the hint \"Play the song.\" starts with \"Play\", not a verb in the third person") == true)
    }

    @Test("hint-gesture: tap, double-tap, double tap, swipe, click, press")
    func hintGesture() {
        for (hint, gesture) in [
            ("Opens on tap.", "tap"), ("Opens on a double-tap.", "double tap"),
            ("Opens after a double tap.", "double tap"),
            ("Opens on swipe.", "swipe"), ("Opens with a click.", "click"), ("Opens on a long press.", "press"),
        ] {
            #expect(rules(Element(id: "x", hint: hint)) == [.hintGesture], "\(hint)")
            #expect(
                message(.hintGesture, Element(id: "x", hint: hint))?.contains("names the gesture \"\(gesture)\"")
                    == true, "\(hint)")
        }
        #expect(rules(Element(id: "x", hint: "Opens the tapestry.")) == [], "only whole words")
        #expect(rules(Element(id: "x", hint: "Abre con un tap."), language: "es") == [], "English only")
    }

    @Test("hint-repeats-label: the label as a whole word or phrase, ignoring case")
    func hintRepeatsLabel() {
        #expect(rules(Element(id: "x", label: "Save", hint: "Saves the document.")) == [], "the protocol's own example")
        #expect(rules(Element(id: "x", label: "Save", hint: "Writes the save file.")) == [.hintRepeatsLabel])
        #expect(rules(Element(id: "x", label: "Wi-Fi", hint: "Turns wi-fi on or off.")) == [.hintRepeatsLabel])
        #expect(
            rules(Element(id: "x", label: "Sharing sheet", hint: "Opens the sharing sheet.")) == [.hintRepeatsLabel])
        #expect(rules(Element(id: "x", label: "Sharing sheet", hint: "Opens the sharing options.")) == [])
        #expect(
            rules(Element(id: "x", label: "Speichern", hint: "Speichern Sie das Dokument."), language: "de") == [
                .hintRepeatsLabel
            ], "not language-specific")
        #expect(
            message(.hintRepeatsLabel, Element(id: "x", label: "Save", hint: "Writes the save file."))
                == "the hint \"Writes the save file.\" repeats the label \"Save\", which VoiceOver has just spoken: say only what activating the element does"
        )
    }

    @Test("hint-has-type: the spoken name of one of the element's traits")
    func hintHasType() {
        #expect(
            rules(Element(id: "x", label: "Share", traits: [.button], hint: "Opens the button's menu.")) == [
                .hintHasType
            ])
        #expect(
            rules(Element(id: "x", label: "Dark mode", traits: [.toggle], hint: "Flips this switch button.")) == [
                .hintHasType
            ])
        #expect(
            rules(Element(id: "x", label: "Share", hint: "Opens the button's menu.")) == [],
            "not a trait of this element")
        #expect(rules(Element(id: "x", label: "Share", traits: [.button], hint: "Opens the buttonhole.")) == [])
        #expect(
            rules(Element(id: "x", label: "Teilen", traits: [.button], hint: "Öffnet das Menü button."), language: "de")
                == [], "English only")
    }

    @Test("adjustable-no-value")
    func adjustableNoValue() {
        #expect(rules(Element(id: "x", label: "Volume", traits: [.adjustable])) == [.adjustableNoValue])
        #expect(rules(Element(id: "x", label: "Volume", value: " ", traits: [.adjustable])) == [.adjustableNoValue])
        #expect(rules(Element(id: "x", label: "Volume", value: "45 percent", traits: [.adjustable])) == [])
        #expect(rules(Element(id: "x", label: "Volume", traits: [.header])) == [])
    }

    @Test("findings walk children depth-first and a post's element once")
    func walk() {
        let screen = [
            Element(
                id: "a", label: "one.", children: [Element(id: "b", label: "two."), Element(id: "c", label: "Three")]),
            Element(id: "d", label: "four."),
        ]
        #expect(
            AccessibilityLint.findings(for: screen, language: nil).map(\.element) == ["a", "a", "b", "b", "d", "d"])
        let post = SpeechPost(kind: .screenChanged, subject: .element(screen[0].children![0]), elements: screen)
        #expect(AccessibilityLint.findings(for: post, language: nil).map(\.element) == ["a", "a", "b", "b", "d", "d"])
        let focus = SpeechPost(kind: .focus, subject: .element(Element(id: "e", label: "five.")))
        #expect(
            AccessibilityLint.findings(for: focus, language: nil).map(\.description) == [
                "e: label-capitalized: the label \"five.\" starts with a lowercase letter: begin it with a capital (\"Five.\") so VoiceOver reads it with the right inflection",
                "e: label-period: the label \"five.\" ends with a period: remove it (\"five\"); a label is a name, not a sentence",
            ])
    }
}
