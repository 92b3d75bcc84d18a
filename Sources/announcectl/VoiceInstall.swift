// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceClient
import AnnouncePOSIX
import ArgumentParser
import Glibc
import PiperVoices

extension Announcectl.Voices {
    /// `voices install SOURCE`.
    struct Install: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Install a Piper voice for your user: a .onnx model with its .onnx.json.",
            discussion: """
                SOURCE is a .onnx file with its .onnx.json beside it, a directory holding one such \
                pair, or the URL (https:// or file://) of the .onnx, whose .onnx.json is fetched from \
                the same URL with .json added (Piper's voices are published so, e.g. on Hugging Face \
                under rhasspy/piper-voices). URLs are fetched with curl, which must be installed.

                Both files are checked before anything is installed: the .onnx.json must be Piper's \
                (phoneme_id_map, audio.sample_rate, espeak.voice, language.code) and the .onnx a whole \
                ONNX model. They go to $XDG_DATA_HOME/announced/voices (~/.local/share/announced/voices) \
                through temporary files in that directory, so an interrupted or refused install \
                leaves no voice half-installed. A voice of the same file name is replaced. A running \
                daemon takes the voice before install ends (install asks it): announcectl voices \
                lists it, and say --voice NAME or the configuration's voice_for_language selects it \
                by its name, the file name without .onnx in lower case (en_us-joe-medium).

                Exit status: 0 installed; 1 refused or failed, with what to do.
                """
        )

        @Argument(
            help: ArgumentHelp(
                "The .onnx file, a directory with one pair, or an https:// or file:// URL of the .onnx.",
                valueName: "source"))
        var source: String

        @ParentCommand var voices: Announcectl.Voices

        func run() async throws {
            guard let directory = PiperVoiceDirectories(environment: ProcessEnvironment.current).user else {
                throw failure("neither XDG_DATA_HOME nor HOME is set, so there is no voice directory; set HOME")
            }
            let installer = PiperVoiceInstaller(directory: directory)
            let origin = try VoiceSource(source)
            do {
                let model = try installer.makeTemporaryFile(for: origin.stem + PiperVoiceFiles.modelSuffix)
                let config: PiperVoiceInstaller.TemporaryFile
                do {
                    config = try installer.makeTemporaryFile(for: origin.stem + PiperVoiceFiles.configSuffix)
                } catch {
                    close(model.descriptor)
                    unlink(model.path)
                    throw error
                }
                do {
                    try origin.fetch(.model, into: model, with: installer)
                    try origin.fetch(.config, into: config, with: installer)
                } catch {
                    for file in [model, config] {
                        close(file.descriptor)
                        unlink(file.path)
                    }
                    throw error
                }
                let voice = try installer.install(stem: origin.stem, model: model, config: config)
                let quality = voice.config.quality.map { ", \($0) quality" } ?? ""
                printLine(
                    "installed \(voice.name) (\(voice.config.languages.first ?? voice.config.languageCode)\(quality)) in \(directory)"
                )
                await voices.confirmWithDaemon(voice.name, listed: true)
            } catch let problem as PiperVoiceProblem {
                throw failure("not installed: \(problem.problem)")
            }
        }
    }

    /// `voices remove NAME`.
    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a Piper voice you installed.",
            discussion: """
                NAME is the voice's name as announcectl voices lists it (en_us-joe-medium). Only \
                voices in $XDG_DATA_HOME/announced/voices are yours to remove; one in \
                /usr/share/announced/voices belongs to a package. Exit status: 0 removed; 1 no such voice.
                """
        )

        @Argument(help: ArgumentHelp("The voice's name, e.g. en_us-joe-medium.", valueName: "name"))
        var name: String

        @ParentCommand var voices: Announcectl.Voices

        func run() async throws {
            let directories = PiperVoiceDirectories(environment: ProcessEnvironment.current)
            guard let directory = directories.user else {
                throw failure("neither XDG_DATA_HOME nor HOME is set; set HOME")
            }
            do {
                if let path = try PiperVoiceInstaller(directory: directory).remove(named: name) {
                    printLine("removed \(name.lowercased()) (\(path))")
                    await voices.confirmWithDaemon(name.lowercased(), listed: false)
                    return
                }
            } catch {
                throw failure("not removed: \(error.problem)")
            }
            var message = "no voice named \(name) in \(directory); `announcectl voices` lists the voices"
            if let system = directories.system, PiperVoiceInstaller(directory: system).hasVoice(named: name) {
                message =
                    "the voice \(name) is in \(system), which belongs to a package: remove it with the package manager"
            }
            throw failure(message)
        }
    }
}

extension Announcectl.Voices {
    /// Asks a running daemon for its voices, so that it has taken the install or removal before
    /// announcectl ends (the daemon answers `voices` once its catalog has seen every change made
    /// before the request): a `say --voice` right after finds the voice. No daemon: nothing to do,
    /// it finds the voice when it starts. A daemon that still does not see the change looks in
    /// other directories: a warning says so.
    func confirmWithDaemon(_ name: String, listed: Bool) async {
        guard let daemonVoices = try? await parent.makeAnnouncer().voices() else { return }
        guard daemonVoices.contains(where: { $0.name == name }) != listed else { return }
        printError(
            "warning: the running daemon \(listed ? "does not list" : "still lists") \(name): it looks for voices "
                + "in another directory (its XDG_DATA_HOME or HOME differs); restart it from this session to use it"
        )
    }
}

/// Prints `message` to standard error and ends with status 1.
private func failure(_ message: String) -> ExitCode {
    printError(message)
    return ExitCode(ExitStatus.failure)
}

/// Where `voices install` takes a pair from.
struct VoiceSource {
    /// A local file or a URL.
    enum Location {
        case file(model: String)
        case url(model: String)
    }

    /// Which file of the pair.
    enum Part { case model, config }

    let location: Location
    /// The model's file name without `.onnx`, as given (`en_US-joe-medium`).
    let stem: String

    init(_ source: String) throws {
        if source.hasPrefix("https://") || source.hasPrefix("file://") {
            let path = source.split(separator: "?", maxSplits: 1).first.map(String.init) ?? source
            let file = path.split(separator: "/").last.map(String.init) ?? ""
            guard file.hasSuffix(PiperVoiceFiles.modelSuffix), file.count > PiperVoiceFiles.modelSuffix.count else {
                throw failure(
                    "the URL must name the voice's .onnx file (its .onnx.json is fetched from the same URL with .json added), not \(source)"
                )
            }
            location = .url(model: source)
            stem = String(Self.percentDecoded(file)?.dropLast(PiperVoiceFiles.modelSuffix.count) ?? "")
            return
        }
        if source.contains("://") {
            throw failure(
                "only https:// and file:// URLs are fetched, not \(source); download the pair and give its .onnx file")
        }
        guard let sourceFile = VoiceFileIO.identity(source) else {
            throw failure("\(source) does not exist; give a .onnx file, a directory with one, or a URL")
        }
        var model = source
        if sourceFile.isDirectory {
            let names = VoiceFileIO.names(in: source) ?? []
            let models = names.filter { $0.hasSuffix(PiperVoiceFiles.modelSuffix) && !$0.hasPrefix(".") }.sorted()
            guard models.count == 1 else {
                throw failure(
                    models.isEmpty
                        ? "\(source) holds no .onnx file; give the directory of one Piper voice"
                        : "\(source) holds \(models.count) .onnx files (\(models.joined(separator: ", "))); give the one to install"
                )
            }
            model = source + "/" + models[0]
        } else if source.hasSuffix(PiperVoiceFiles.configSuffix) {
            model = String(source.dropLast(".json".count))
        }
        let file = model.split(separator: "/").last.map(String.init) ?? model
        guard file.hasSuffix(PiperVoiceFiles.modelSuffix), file.count > PiperVoiceFiles.modelSuffix.count else {
            throw failure("\(source) is not a .onnx file; give a Piper voice's .onnx (with its .onnx.json beside it)")
        }
        guard VoiceFileIO.identity(model + ".json") != nil else {
            throw failure(
                "\(model).json is missing; a Piper voice is the .onnx with its .onnx.json beside it, download both")
        }
        location = .file(model: model)
        stem = String(file.dropLast(PiperVoiceFiles.modelSuffix.count))
    }

    /// Fills `file` with the part of the pair.
    func fetch(_ part: Part, into file: PiperVoiceInstaller.TemporaryFile, with installer: PiperVoiceInstaller) throws {
        let name = stem + (part == .model ? PiperVoiceFiles.modelSuffix : PiperVoiceFiles.configSuffix)
        switch location {
        case .file(let model):
            do {
                try installer.copy(part == .model ? model : model + ".json", into: file)
            } catch {
                throw PiperVoiceProblem("\(name) \(error.problem)")
            }
        case .url(let model):
            try download(part == .model ? model : Self.configURL(model), to: file.path, name: name)
        }
    }

    /// The `.onnx.json`'s URL: the model's with `.json` added to its path (before a query).
    static func configURL(_ model: String) -> String {
        let parts = model.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        return parts[0] + ".json" + (parts.count > 1 ? "?" + parts[1] : "")
    }

    /// Fetches `url` into `path` with curl: the plainest dependable way. curl follows the
    /// redirects voice hosts use (Hugging Face sends its files from a CDN), honours the user's
    /// proxy settings and certificates, and fails on an HTTP error (--fail) instead of saving an
    /// error page; FoundationNetworking would add libcurl and its own HTTP stack to announcectl
    /// for one command. file:// goes through curl too, so the tests fetch the way users do.
    private func download(_ url: String, to path: String, name: String) throws {
        let curl: ChildProcess.Termination
        do {
            curl = try ChildProcess.run(
                "/usr/bin/env",
                [
                    "curl", "--fail", "--location", "--silent", "--show-error", "--proto", "=https,file",
                    "--proto-redir", "=https",
                    "--output", path, url,
                ]
            )
        } catch {
            throw PiperVoiceProblem(
                "\(name) cannot be fetched: curl cannot be run (\(error)); install curl (apt-get install curl), or download the pair and give its .onnx file"
            )
        }
        let message = String(decoding: curl.standardError, as: UTF8.self)
        guard curl.status == 0 else {
            let reason =
                message.split(separator: "\n").last.map(String.init) ?? "curl exited with status \(curl.status)"
            if curl.status == 127 {
                throw PiperVoiceProblem(
                    "\(name) cannot be fetched: curl is not installed; install it (apt-get install curl), or download the pair and give its .onnx file"
                )
            }
            throw PiperVoiceProblem(
                "\(name) cannot be fetched from \(url): \(reason); check the URL (it must name the .onnx, with the .onnx.json beside it)"
            )
        }
    }

    /// `text` with each `%XX` replaced by the byte it stands for; nil when a `%` is not followed by
    /// two hexadecimal digits or the bytes are not UTF-8 (as Foundation's `removingPercentEncoding`).
    static func percentDecoded(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var input = Array(text.utf8)[...]
        while let byte = input.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard input.count >= 2, let value = UInt8(String(decoding: input.prefix(2), as: UTF8.self), radix: 16)
            else { return nil }
            bytes.append(value)
            input = input.dropFirst(2)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
