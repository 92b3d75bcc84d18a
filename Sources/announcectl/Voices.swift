// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceClient
import ArgumentParser

extension Announcectl {
    /// `voices [list] [--lang L] [--sample] [--json]`, `voices install SOURCE`, `voices remove NAME`.
    struct Voices: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the voices the daemon can speak with; install and remove Piper voices.",
            discussion: """
                Without a subcommand, lists the voices (voices list). announced speaks with espeak-ng's \
                voices and with the Piper voices installed in $XDG_DATA_HOME/announced/voices \
                (~/.local/share/announced/voices) and /usr/share/announced/voices. A Piper voice is a \
                .onnx model with its .onnx.json beside it; voices install checks a pair and puts it \
                in place, and the daemon sees it at once, without a restart.
                """,
            subcommands: [List.self, Install.self, Remove.self],
            defaultSubcommand: List.self
        )
        @ParentCommand var parent: Announcectl
    }
}

extension Announcectl.Voices {
    /// `voices list [--lang L] [--sample] [--json]`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the voices: name, language, engine, quality or gender, title.",
            discussion: """
                A voice is selected (say --voice, set --voice, the daemon's --voice and the \
                configuration's voice and voice_for_language) by its name, its file, any of its \
                languages, or its title. A Piper voice's name is its file name without .onnx, \
                lower-cased (en_us-joe-medium). With --sample each listed voice says a sample \
                sentence, one after another.
                """
        )
        @ParentCommand var voices: Announcectl.Voices

        @Option(help: ArgumentHelp("Only the voices for this BCP 47 language, e.g. en, pt-BR.", valueName: "lang"))
        var lang: String?

        @Flag(help: "Let each listed voice speak a sample sentence, waiting for each.")
        var sample = false

        @Flag(help: "Print the daemon's list as JSON lines, one voice a line.")
        var json = false

        func validate() throws {
            if let lang, !RequestLine.isPlausibleLanguageTag(lang) {
                throw ValidationError("--lang must be a BCP 47 language tag such as en, de-DE or cmn")
            }
        }

        func run() async throws {
            let announcer = voices.parent.makeAnnouncer()
            let list: [VoiceInfo]
            do { list = try await announcer.voices(language: lang) } catch { throw fail(error) }
            if list.isEmpty {
                printError("no voice speaks \(lang ?? "any language"); `announcectl voices` lists them all")
                throw ExitCode(ExitStatus.failure)
            }
            let rows = list.map { voice in
                [voice.name, voice.language, voice.engine, voice.quality ?? voice.gender ?? "-", voice.title ?? ""]
            }
            let widths = (0..<4).map { column in rows.map { $0[column].count }.max() ?? 0 }
            var worst = ExitStatus.success
            for (voice, row) in zip(list, rows) {
                if json {
                    printLine(Self.json(voice))
                } else {
                    let padded = (0..<4).map { row[$0].padded(to: widths[$0] + 2) }.joined()
                    printLine((padded + row[4]).trimmingTrailingSpaces())
                }
                if sample {
                    var options = SpeechOptions()
                    options.voice = voice.file
                    options.queue = true
                    let post = SpeechPost.announce(SampleSentence.text(language: voice.language), options: options)
                    worst = max(worst, await announcer.send(post, wait: true))
                }
            }
            try finish(with: worst)
        }

        /// The voice as the daemon's `voices` entry writes it.
        static func json(_ voice: VoiceInfo) -> String {
            var object = JSONObject()
            object.append("name", .string(voice.name))
            object.append("language", .string(voice.language))
            object.append("languages", .array(voice.languages.map(JSONValue.string)))
            object.append("file", .string(voice.file))
            if let gender = voice.gender { object.append("gender", .string(gender)) }
            if let title = voice.title { object.append("title", .string(title)) }
            object.append("engine", .string(voice.engine))
            if let quality = voice.quality { object.append("quality", .string(quality)) }
            return JSONValue.object(object).jsonText
        }
    }
}

extension String {
    /// The string without the spaces at its end.
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }

    /// The string with spaces added at its end up to `length` characters (a table's column).
    func padded(to length: Int) -> String {
        self + String(repeating: " ", count: Swift.max(0, length - count))
    }
}
