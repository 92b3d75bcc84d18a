// SPDX-License-Identifier: GPL-3.0-or-later
import AccessibilityLint
import AnnounceProtocol
import Testing

/// The label and hint guidelines' own examples, from the seeds (`../shared/seeds/`).
@Suite("Lint: the seed guidelines' examples")
struct SeedExampleTests {
    @Test("Good: the Share button (label \"Share\", trait button, hint \"Opens the sharing sheet.\")")
    func shareButton() {
        #expect(rules(Element(id: "share", label: "Share", traits: [.button], hint: "Opens the sharing sheet.")) == [])
    }

    @Test("Good: the Reader cell's combined label, and the stepper with a value")
    func goodLabels() {
        #expect(
            rules(
                Element(
                    id: "post",
                    label: "Post by Ann, from WordPress News, 5 minutes ago. Swift 6 is here. What changed and why"))
                == [])
        #expect(
            rules(Element(id: "stepper", label: "My Step-able Item", value: "3 Items", traits: [.adjustable])) == [])
        let graph = Element(
            id: "graph", label: "Budget History Graph", traits: [.image],
            children: [
                Element(id: "jan", label: "January", value: "$1,200.00"),
                Element(id: "feb", label: "February", value: "$950.00"),
            ]
        )
        #expect(AccessibilityLint.findings(for: [graph], language: nil) == [])
    }

    @Test("Bad: the switch row's hint \"tap twice to change the switch control status.\"")
    func switchRow() {
        let row = Element(
            id: "row", hint: "tap twice to change the switch control status.",
            children: [
                Element(id: "label1", label: "label1"), Element(id: "label2", label: "label2"),
                Element(id: "switch", value: "off", traits: [.toggle]),
            ],
            childrenMode: .combine
        )
        #expect(rules(of: "row", in: [row]) == [.hintCapitalized, .hintImperative, .hintGesture])
        #expect(rules(of: "label1", in: [row]) == [.labelCapitalized])
        #expect(rules(of: "switch", in: [row]) == [], "the combined labels name the row")
    }

    @Test("Bad: the text field's hint \"I'm accessibility hint\"")
    func textFieldHint() {
        let field = Element(
            id: "field", label: "TextField has accessibilityLabel", value: "TextField has texts",
            hint: "I'm accessibility hint")
        #expect(rules(field) == [.hintPeriod, .hintImperative])
    }

    @Test("Bad: VoiceOver's own gesture hints as an app's hints")
    func gestureHints() {
        #expect(
            rules(
                Element(
                    id: "toggle", label: "Wi-Fi", value: "off", traits: [.toggle], hint: "Double tap to toggle setting")
            ) == [.hintPeriod, .hintImperative, .hintGesture])
        #expect(
            rules(
                Element(
                    id: "slider", label: "Volume", value: "45 percent", traits: [.adjustable],
                    hint: "swipe up/down with one finger to ajust value")) == [
                    .hintCapitalized, .hintPeriod, .hintImperative, .hintGesture,
                ])
    }

    @Test("Bad: a label with the type (\"Normal Button\"), an image-only button, a stepper without a value")
    func badLabels() {
        #expect(rules(Element(id: "normal", label: "Normal Button", traits: [.button])) == [.labelHasType])
        #expect(rules(Element(id: "normal", label: "Normal", traits: [.button])) == [])
        #expect(
            rules(Element(id: "reset", traits: [.button, .image])) == [.missingLabel],
            "the task timer's reset button shows only an image")
        #expect(
            rules(Element(id: "stepper", label: "My Step-able Item", traits: [.adjustable])) == [.adjustableNoValue])
    }
}
