import AnnounceClient
import ArgumentParser

extension Announcectl {
    /// `say TEXT...`: an `announce` post.
    struct Say: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Speak a text.",
            discussion: """
                The words are joined with spaces into one announcement. A single - reads standard input \
                and speaks each non-empty line, in order: later lines wait behind earlier ones, and with \
                --wait each line is sent only after the previous one ended.
                """
        )

        @ParentCommand var parent: Announcectl

        @Argument(help: ArgumentHelp("The text to speak, or - for standard input.", valueName: "text"))
        var text: [String]

        @OptionGroup var waiting: WaitOption

        @Option(help: "The post's priority.")
        var priority: Priority?

        @Flag(help: "Wait behind what is speaking instead of interrupting it.")
        var queue = false

        @Option(help: "An espeak-ng voice, e.g. en-us, de, cmn.")
        var voice: String?

        @Option(help: ArgumentHelp("The text's BCP 47 language, e.g. en, de-DE.", valueName: "lang"))
        var lang: String?

        @Option(help: "Words per minute, 80 to 450.")
        var rate: Int?

        @Flag(help: "The text is SSML.")
        var ssml = false

        @Flag(help: "Speak the text character by character.")
        var spell = false

        var readsStandardInput: Bool { text == ["-"] }

        func validate() throws {
            if text.allSatisfy({ $0.allSatisfy(\.isWhitespace) }) {
                throw ValidationError("give the text to speak, or - to read it from standard input")
            }
            if let rate, !SpeechRanges.rate.contains(rate) {
                throw ValidationError("--rate must be between 80 and 450 words per minute")
            }
        }

        var options: SpeechOptions {
            var options = SpeechOptions()
            if let priority { options.priority = priority }
            options.queue = queue
            options.voice = voice
            options.lang = lang
            options.rate = rate
            options.ssml = ssml
            options.spell = spell
            return options
        }

        func run() async throws {
            let announcer = parent.makeAnnouncer()
            guard readsStandardInput else {
                try finish(with: await announcer.send(.announce(text.joined(separator: " "), options: options), wait: waiting.wait))
                return
            }
            var worst = ExitStatus.success
            var options = self.options
            while let line = readLine() {
                guard !line.allSatisfy(\.isWhitespace) else { continue }
                let status = await announcer.send(.announce(line, options: options), wait: waiting.wait)
                if status == ExitStatus.failure { try finish(with: status) }
                worst = max(worst, status)
                options.queue = true
            }
            try finish(with: worst)
        }
    }
}
