// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceClient
import ArgumentParser

extension Announcectl {
    /// `focus --id ID ...`: a `focus` post with an element.
    struct Focus: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Move the focus cursor to an element and speak it.",
            discussion: """
                Spoken as label, value, traits, hint: --label Save --trait button --hint 'Saves the document.' \
                says "Save, button. Saves the document."

                The focus belongs to announcectl's connection, so it disappears (focus-changed to none) \
                as soon as announcectl exits; with --wait it lasts until the element has been spoken.
                """
        )

        @ParentCommand var parent: Announcectl

        @Option(help: "The element's id.")
        var id: String

        @Option(help: "What the element is, e.g. Share.")
        var label: String?

        @Option(help: "Its current value, e.g. '45 percent'.")
        var value: String?

        @Option(
            name: .customLong("trait"),
            help: ArgumentHelp(
                "A trait; repeat for more: \(Trait.allCases.map(\.rawValue).joined(separator: ", ")).",
                valueName: "trait"))
        var traits: [Trait] = []

        @Option(help: "What activating it does.")
        var hint: String?

        @OptionGroup var waiting: WaitOption

        func validate() throws {
            if id.isEmpty { throw ValidationError("--id must not be empty") }
        }

        func run() async throws {
            let element = Element(id: id, label: label, value: value, traits: traits, hint: hint)
            try finish(
                with: await parent.makeAnnouncer().send(
                    SpeechPost(kind: .focus, subject: .element(element)), wait: waiting.wait))
        }
    }
}
