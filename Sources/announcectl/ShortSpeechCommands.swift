// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceClient
import ArgumentParser

/// The options `char`, `key` and `sound` share with `say`.
struct ShortSpeechOptions: ParsableArguments {
    @OptionGroup var waiting: WaitOption

    @Option(help: "The post's priority.")
    var priority: Priority?

    @Flag(help: "Wait behind what is speaking instead of interrupting it.")
    var queue = false

    @Option(help: "An espeak-ng voice, by language or file name.")
    var voice: String?

    @Option(help: SpeechOptionRanges.rateHelp)
    var rate: Int?

    func validate() throws {
        try SpeechOptionRanges.check(rate: rate)
        if let voice, voice.allSatisfy(\.isWhitespace) { throw ValidationError("--voice must not be empty") }
    }

    var options: SpeechOptions {
        var options = SpeechOptions()
        if let priority { options.priority = priority }
        options.queue = queue
        options.voice = voice
        options.rate = rate
        return options
    }
}

extension Announcectl {
    /// `char C`.
    struct Char: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "char",
            abstract: "Speak one character by its name: a, capital B, space, newline.",
            discussion: "Quote a space: announcectl char ' '."
        )
        @ParentCommand var parent: Announcectl

        @Argument(help: ArgumentHelp("One character.", valueName: "character"))
        var character: String

        @OptionGroup var speech: ShortSpeechOptions

        func validate() throws {
            if character.count != 1 { throw ValidationError("give exactly one character (quote a space: ' ')") }
        }

        func run() async throws {
            try finish(
                with: await parent.makeAnnouncer().send(
                    .character(character), options: speech.options, wait: speech.waiting.wait))
        }
    }

    /// `key NAME`.
    struct Key: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Speak a key name as people say it: shift_a says \"shift a\", control_alt_delete \"control alt delete\".",
            discussion: "Parts are separated by _, + or - (kp-enter says \"keypad enter\"); single letters are spelled."
        )
        @ParentCommand var parent: Announcectl

        @Argument(help: ArgumentHelp("The key name, e.g. shift_a, control+alt+delete, kp-enter.", valueName: "name"))
        var name: String

        @OptionGroup var speech: ShortSpeechOptions

        func validate() throws {
            if name.isEmpty || name.contains(where: \.isWhitespace) {
                throw ValidationError("give a key name without spaces, e.g. control_alt_delete")
            }
        }

        func run() async throws {
            try finish(
                with: await parent.makeAnnouncer().send(.key(name), options: speech.options, wait: speech.waiting.wait))
        }
    }

    /// `sound NAME`.
    struct Sound: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Play one of the daemon's earcons by name: \(ShortSpeech.soundNames.joined(separator: ", ")).",
            discussion: "It plays even when the configuration turns automatic earcons off."
        )
        @ParentCommand var parent: Announcectl

        @Argument(help: ArgumentHelp("The earcon's name.", valueName: "name"))
        var name: String

        @OptionGroup var speech: ShortSpeechOptions

        func validate() throws {
            if !ShortSpeech.soundNames.contains(name) {
                throw ValidationError(
                    "unknown sound \"\(name)\"; the sounds are \(ShortSpeech.soundNames.joined(separator: ", "))")
            }
        }

        func run() async throws {
            try finish(
                with: await parent.makeAnnouncer().send(
                    .sound(name), options: speech.options, wait: speech.waiting.wait))
        }
    }
}
