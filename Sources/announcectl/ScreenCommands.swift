// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceClient
import ArgumentParser

/// The text argument of `screen-changed` and `layout-changed`.
struct OptionalTextArgument: ParsableArguments {
    @Argument(help: "What to speak; without it the post carries null.")
    var text: String?

    var subject: PostSubject { text.map(PostSubject.text) ?? .none }
}

extension Announcectl {
    /// `screen-changed [TEXT]`.
    struct ScreenChanged: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "screen-changed",
            abstract: "Announce a new screen: interrupts speech, discards what waits, then speaks TEXT."
        )

        @ParentCommand var parent: Announcectl
        @OptionGroup var argument: OptionalTextArgument
        @OptionGroup var waiting: WaitOption

        func run() async throws {
            try finish(
                with: await parent.makeAnnouncer().send(
                    SpeechPost(kind: .screenChanged, subject: argument.subject), wait: waiting.wait))
        }
    }

    /// `layout-changed [TEXT]`.
    struct LayoutChanged: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "layout-changed",
            abstract: "Announce that part of the screen changed, speaking TEXT if given."
        )

        @ParentCommand var parent: Announcectl
        @OptionGroup var argument: OptionalTextArgument
        @OptionGroup var waiting: WaitOption

        func run() async throws {
            try finish(
                with: await parent.makeAnnouncer().send(
                    SpeechPost(kind: .layoutChanged, subject: argument.subject), wait: waiting.wait))
        }
    }
}
