// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceClient
import ArgumentParser

extension Announcectl {
    /// `cancel [ID]`: the caller's own posts (those of earlier announcectl runs).
    struct Cancel: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Cancel what announcectl said: the post given --id ID, or every post of announcectl pending or speaking.",
            discussion: """
                Other apps' posts are left alone (stop ends everything). Exit status 0 when a post \
                was cancelled, 1 when none was pending or speaking.
                """
        )
        @ParentCommand var parent: Announcectl

        @Argument(help: ArgumentHelp("The id given to say --id.", valueName: "id"))
        var id: String?

        func validate() throws {
            if let id, id.isEmpty { throw ValidationError("the id must not be empty") }
        }

        func run() async throws {
            let count: Int
            do { count = try await parent.makeAnnouncer().cancelOwnPosts(target: id.map(RequestID.string)) } catch { throw fail(error) }
            printLine(count == 1 ? "cancelled 1 post" : "cancelled \(count) posts")
        }
    }

    /// `voices [--lang L] [--sample]`.
    struct Voices: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the voices the daemon can speak with: name, language, gender.",
            discussion: """
                A voice is selected (say --voice, set --voice) by its name, its file, any of its \
                languages, or its title. With --sample each listed voice says a sample sentence, one \
                after another.
                """
        )
        @ParentCommand var parent: Announcectl

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
            let announcer = parent.makeAnnouncer()
            let voices: [VoiceInfo]
            do { voices = try await announcer.voices(language: lang) } catch { throw fail(error) }
            if voices.isEmpty {
                printError("no voice speaks \(lang ?? "any language"); `announcectl voices` lists them all")
                throw ExitCode(ExitStatus.failure)
            }
            let width = voices.map(\.name.count).max() ?? 0
            let languageWidth = voices.map(\.language.count).max() ?? 0
            var worst = ExitStatus.success
            for voice in voices {
                if json {
                    printLine(voiceJSON(voice))
                } else {
                    let name = voice.name.padding(toLength: width + 2, withPad: " ", startingAt: 0)
                    let language = voice.language.padding(toLength: languageWidth + 2, withPad: " ", startingAt: 0)
                    printLine("\(name)\(language)\(voice.gender ?? "-")\(voice.title.map { "  " + $0 } ?? "")")
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

        private func voiceJSON(_ voice: VoiceInfo) -> String {
            var object = JSONObject()
            object.append("name", .string(voice.name))
            object.append("language", .string(voice.language))
            object.append("languages", .array(voice.languages.map(JSONValue.string)))
            object.append("file", .string(voice.file))
            if let gender = voice.gender { object.append("gender", .string(gender)) }
            if let title = voice.title { object.append("title", .string(title)) }
            return JSONValue.object(object).jsonText
        }
    }
}
