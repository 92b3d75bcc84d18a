// SPDX-License-Identifier: GPL-3.0-or-later
import AccessibilityLint
import AnnounceProtocol
import Testing

@Suite("Lint: labels")
struct LabelRuleTests {
    @Test("missing-label: every trait that needs a name, on a stop without a label")
    func missingLabel() {
        for trait in [Trait.button, .link, .image, .adjustable, .toggle, .searchField] {
            #expect(rules(Element(id: "x", value: "1", traits: [trait])).contains(.missingLabel), "\(trait)")
            #expect(
                rules(Element(id: "x", label: "   ", value: "1", traits: [trait])).contains(.missingLabel),
                "blank label, \(trait)")
            #expect(
                !rules(Element(id: "x", label: "Volume", value: "1", traits: [trait])).contains(.missingLabel),
                "\(trait)")
        }
        #expect(rules(Element(id: "x", traits: [.header])) == [])
        #expect(rules(Element(id: "x")) == [])
        #expect(
            message(.missingLabel, Element(id: "x", traits: [.button]))
                == "this button has no label, so VoiceOver users hear only \"button\": give it a label that says what it is or does (\"Share\", \"Play\")"
        )
    }

    @Test("missing-label: a combine container counts its children's labels and traits")
    func missingLabelCombine() {
        let labelled = Element(
            id: "row", traits: [.button], children: [Element(id: "title", label: "Inbox")], childrenMode: .combine)
        #expect(rules(of: "row", in: [labelled]) == [])
        let unlabelled = Element(
            id: "row", children: [Element(id: "switch", value: "on", traits: [.toggle])], childrenMode: .combine)
        #expect(rules(of: "row", in: [unlabelled]) == [.missingLabel])
        #expect(rules(of: "switch", in: [unlabelled]) == [], "a combined child is not a stop")
        let hiddenLabel = Element(
            id: "row", traits: [.button], children: [Element(id: "t", label: "Inbox", hidden: true)],
            childrenMode: .combine)
        #expect(rules(of: "row", in: [hiddenLabel]) == [.missingLabel], "a hidden child is not spoken")
    }

    @Test("missing-label: only stops; contain containers pass it to their children, ignore keeps it")
    func missingLabelStops() {
        let contained = Element(id: "bar", traits: [.button], children: [Element(id: "b", traits: [.button])])
        #expect(rules(of: "bar", in: [contained]) == [], "a contain container is not a stop")
        #expect(rules(of: "b", in: [contained]) == [.missingLabel])
        let ignored = Element(
            id: "cell", traits: [.button], children: [Element(id: "b", traits: [.button])], childrenMode: .ignore)
        #expect(rules(of: "cell", in: [ignored]) == [.missingLabel])
        #expect(rules(of: "b", in: [ignored]) == [], "an ignored child is not a stop")
        #expect(
            rules(Element(id: "x", traits: [.image], hidden: true)) == [.missingLabel],
            "hidden: the stop it becomes when shown")
    }

    @Test("label-capitalized")
    func labelCapitalized() {
        #expect(rules(Element(id: "x", label: "save")) == [.labelCapitalized])
        #expect(rules(Element(id: "x", label: "  save")) == [.labelCapitalized])
        #expect(rules(Element(id: "x", label: "Save")) == [])
        #expect(rules(Element(id: "x", label: "3 new messages")) == [])
        #expect(
            rules(Element(id: "x", label: "über", traits: []), language: "de") == [.labelCapitalized],
            "not language-specific")
        #expect(rules(Element(id: "x", label: "保存"), language: "zh") == [])
        #expect(
            message(.labelCapitalized, Element(id: "x", label: "save"))
                == "the label \"save\" starts with a lowercase letter: begin it with a capital (\"Save\") so VoiceOver reads it with the right inflection"
        )
    }

    @Test("label-period")
    func labelPeriod() {
        #expect(rules(Element(id: "x", label: "Share.")) == [.labelPeriod])
        #expect(rules(Element(id: "x", label: "Share. ")) == [.labelPeriod])
        #expect(rules(Element(id: "x", label: "Share")) == [])
        #expect(
            rules(Element(id: "x", label: "Post by Ann, from News, 5 minutes ago. Swift 6 is out")) == [],
            "a period inside is fine")
        #expect(
            message(.labelPeriod, Element(id: "x", label: "Share."))
                == "the label \"Share.\" ends with a period: remove it (\"Share\"); a label is a name, not a sentence")
    }

    @Test("label-has-type: the element's spoken trait names and button, link, image, tab, as words")
    func labelHasType() {
        #expect(rules(Element(id: "x", label: "Save button", traits: [.button])) == [.labelHasType])
        #expect(rules(Element(id: "x", label: "Save Button")) == [.labelHasType], "button, even without the trait")
        #expect(rules(Element(id: "x", label: "Help link")) == [.labelHasType])
        #expect(rules(Element(id: "x", label: "Profile image", traits: [.image])) == [.labelHasType])
        #expect(rules(Element(id: "x", label: "Settings tab")) == [.labelHasType])
        #expect(rules(Element(id: "x", label: "Wi-Fi switch button", traits: [.toggle])) == [.labelHasType])
        #expect(rules(Element(id: "x", label: "Contacts search field", traits: [.searchField])) == [.labelHasType])
        #expect(rules(Element(id: "x", label: "Chapter heading", traits: [.header])) == [.labelHasType])
        #expect(
            message(.labelHasType, Element(id: "x", label: "Wi-Fi switch button", traits: [.toggle]))?.contains(
                "\"switch button\"") == true)
        // Not as a word, or not a trait of this element.
        #expect(rules(Element(id: "x", label: "Buttons and knobs", traits: [.header])) == [])
        #expect(rules(Element(id: "x", label: "Imagery", traits: [.image])) == [])
        #expect(rules(Element(id: "x", label: "Chapter heading")) == [], "heading is spoken only for a header")
        #expect(rules(Element(id: "x", label: "Search", traits: [.searchField])) == [])
        // English only.
        #expect(rules(Element(id: "x", label: "Speichern button", traits: [.button]), language: "de") == [])
        #expect(rules(Element(id: "x", label: "Save button", traits: [.button]), language: "en-GB") == [.labelHasType])
    }
}
