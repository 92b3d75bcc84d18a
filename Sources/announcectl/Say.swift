// SPDX-License-Identifier: GPL-3.0-or-later
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

                Without --queue a post interrupts what is speaking, so a script that says several \
                things in a row should pass --queue (or use --wait).

                Without --wait the exit status is 0 once the post is queued to be spoken; a muted \
                daemon or a refused post prints why on standard error and exits 3 or 1. A warning \
                from the daemon (no voice for --lang) is printed on standard error.

                With --wait, announcectl prints how the post ended: spoken, interrupted after 12 of \
                40 characters, cancelled, muted, dropped (with the reason, e.g. too many posts \
                waiting) or nothing to speak; when another voice spoke than the one asked for, \
                spoken (voice en-us). It exits 0 only if the post was spoken to the end. With -, the \
                exit status is the worst among the lines.

                A voice is named by language (en-gb, fr-fr, pt-br), by espeak-ng's file name \
                (gmw/en, roa/fr, or without the folder, en, fr) or by its title (klingon); \
                announcectl voices lists them. An unknown voice is an error at once (exit 1 with \
                the daemon's message).
                """
        )

        @ParentCommand var parent: Announcectl

        @Argument(help: ArgumentHelp("The text to speak, or - for standard input.", valueName: "text"))
        var text: [String] = []

        @OptionGroup var waiting: WaitOption

        @Option(help: "The post's priority.")
        var priority: Priority?

        @Flag(help: "Wait behind what is speaking instead of interrupting it.")
        var queue = false

        @Option(
            help:
                "An espeak-ng voice, by language or file name, e.g. en-us, en-gb, gmw/en, de (announcectl voices lists them)."
        )
        var voice: String?

        @Option(help: ArgumentHelp("The text's BCP 47 language, e.g. en, de-DE.", valueName: "lang"))
        var lang: String?

        @Option(help: SpeechOptionRanges.rateHelp)
        var rate: Int?

        @Option(help: "Pitch, 0 to 100 (Piper voices ignore it).")
        var pitch: Int?

        @Option(help: "Volume, 0 to 200 (100 is normal).")
        var volume: Int?

        @Option(
            help:
                "Which punctuation is spoken: none, some or all (some and all in a Piper voice are spoken by espeak-ng)."
        )
        var punctuation: Punctuation?

        @Flag(help: "The text is SSML.")
        var ssml = false

        @Flag(help: "Speak the text character by character (in a Piper voice, by espeak-ng in its language).")
        var spell = false

        @Flag(help: "With --wait, print each word (and SSML mark) as it is heard.")
        var words = false

        @Option(help: ArgumentHelp("The request id to post under (echoed in --json output).", valueName: "id"))
        var id: String?

        @Flag(
            help:
                "Print the daemon's lines as JSON: the terminal line with --wait (and word lines with --words), else the queued line."
        )
        var json = false

        @Flag(help: "Speak a sample sentence in the voice or language given (--voice or --lang) instead of a text.")
        var sample = false

        var readsStandardInput: Bool { text == ["-"] }

        func validate() throws {
            if sample {
                if !text.isEmpty { throw ValidationError("--sample speaks its own sentence; leave out the text") }
                if voice == nil && lang == nil { throw ValidationError("--sample needs --voice or --lang") }
            } else if text.allSatisfy({ $0.allSatisfy(\.isWhitespace) }) {
                throw ValidationError("give the text to speak, or - to read it from standard input")
            }
            if text.count > 1 && text.contains("-") {
                throw ValidationError(
                    "- reads the text from standard input and takes no other words; quote a text that is a dash")
            }
            if let lang, !RequestLine.isPlausibleLanguageTag(lang) {
                throw ValidationError("--lang must be a BCP 47 language tag such as en, de-DE or cmn")
            }
            if let voice, voice.allSatisfy(\.isWhitespace) { throw ValidationError("--voice must not be empty") }
            try SpeechOptionRanges.check(rate: rate, pitch: pitch, volume: volume)
            if words && !waiting.wait {
                throw ValidationError("--words prints words as they are heard, so it needs --wait")
            }
            if id != nil && readsStandardInput {
                throw ValidationError("--id names one post; with - every line is a post of its own")
            }
            if let id, id.isEmpty { throw ValidationError("--id must not be empty") }
        }

        var options: SpeechOptions {
            var options = SpeechOptions()
            if let priority { options.priority = priority }
            options.queue = queue
            options.voice = voice
            options.lang = lang
            options.rate = rate
            options.pitch = pitch
            options.volume = volume
            options.punctuation = punctuation
            options.ssml = ssml
            options.spell = spell
            options.words = words
            return options
        }

        var display: PostDisplay { PostDisplay(askedVoice: voice, words: words, json: json) }

        func run() async throws {
            let announcer = parent.makeAnnouncer()
            guard readsStandardInput else {
                let spoken = sample ? SampleSentence.text(language: lang ?? voice ?? "en") : text.joined(separator: " ")
                let post = SpeechPost.announce(spoken, options: options)
                try finish(
                    with: await announcer.send(post, wait: waiting.wait, id: id.map(RequestID.string), display: display)
                )
                return
            }
            var worst = ExitStatus.success
            var options = self.options
            while let line = readLine() {
                guard !line.allSatisfy(\.isWhitespace) else { continue }
                let status = await announcer.send(
                    .announce(line, options: options), wait: waiting.wait, display: display)
                if status == ExitStatus.failure { try finish(with: status) }
                worst = max(worst, status)
                options.queue = true
            }
            try finish(with: worst)
        }
    }
}

/// The sentence `--sample` speaks: in the voice's language where there is one, else English.
enum SampleSentence {
    static let sentences: [String: String] = [
        "en": "This is how this voice sounds.",
        "de": "So klingt diese Stimme.",
        "fr": "Voici comment sonne cette voix.",
        "es": "Así suena esta voz.",
        "it": "Ecco come suona questa voce.",
        "pt": "É assim que soa esta voz.",
        "nl": "Zo klinkt deze stem.",
    ]

    /// The sample for a language tag or voice name (`de-DE`, `fr-fr`, `roa/fr`).
    static func text(language: String) -> String {
        let name = language.split(separator: "/").last.map(String.init) ?? language
        let primary = String(name.lowercased().prefix { $0.isLetter })
        return sentences[primary] ?? "This is how this voice sounds."
    }
}
