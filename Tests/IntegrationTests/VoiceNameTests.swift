// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import TestSupport
import Testing

/// One line of `espeak-ng --voices`: its Language and File columns.
struct EspeakVoiceEntry: Sendable, CustomStringConvertible {
    var language: String
    var file: String
    /// The file name without its folder, lower-cased: the name the daemon reports.
    var name: String { String(file.split(separator: "/").last ?? Substring(file)).lowercased() }
    var description: String { "\(language) (\(file))" }

    /// The entries `espeak-ng --voices` prints.
    static func all() throws -> [EspeakVoiceEntry] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/espeak-ng")
        process.arguments = ["--voices"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitForExit()
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let columns = line.split(separator: " ", omittingEmptySubsequences: true)
            guard columns.count >= 5 else { return nil }
            return EspeakVoiceEntry(language: String(columns[1]), file: String(columns[4]))
        }
    }
}

/// The voice names an example in `text` gives: `--voice NAME`, and the quoted or backticked
/// names of an "e.g." list that mentions a voice.
func exampleVoiceNames(in text: String) -> Set<String> {
    var names: Set<String> = []
    for match in text.matches(of: /--voice[ =]([a-zA-Z0-9\/_+-]+)/) { names.insert(String(match.1)) }
    for line in text.split(separator: "\n") where line.contains("voice") {
        for list in line.matches(of: /e\.g\.([^)]*)/) {
            for name in list.1.matches(of: /[`"]([a-zA-Z0-9\/_+-]+)[`"]/) { names.insert(String(name.1)) }
        }
    }
    names.remove("NAME")
    names.remove("V")
    return names
}

@Suite("Daemon: voice names are resolved the same way everywhere", .daemonTimeLimit, .onBlockingThreads, .serialized)
struct VoiceNameTests {
    @Test(
        "every language and file name `espeak-ng --voices` prints is either refused at `set` or speaks, with that voice"
    )
    func everyListedVoice() throws {
        let entries = try EspeakVoiceEntry.all()
        try #require(entries.count > 50, "espeak-ng --voices listed \(entries.count) voices")
        // 786 requests: at debug level the daemon's log would fill the stderr pipe this test
        // reads only at the end, and the daemon would block writing it.
        let daemon = try DaemonProcess(arguments: ["--log-level", "notice"])
        let client = try daemon.connect()
        var refused: [String] = []
        var spoken = 0
        let names = entries.flatMap { [($0.language, $0), ($0.file, $0)] }
        // In batches, to stay under max_pending_per_client.
        for batchStart in stride(from: 0, to: names.count, by: 30) {
            let batch = Array(names[batchStart..<min(batchStart + 30, names.count)])
            var lines: [String] = []
            for (offset, (name, _)) in batch.enumerated() {
                let id = batchStart + offset + 1
                lines.append(#"{"op":"set","id":\#(100_000 + id),"voice":"\#(name)"}"#)
                lines.append(#"{"op":"announce","id":\#(id),"text":"a","rate":450,"queue":true}"#)
                lines.append(
                    #"{"op":"announce","id":\#(200_000 + id),"text":"a","rate":450,"queue":true,"voice":"\#(name)"}"#)
            }
            client.sendRaw(Array(lines.map { $0 + "\n" }.joined().utf8))
            for (offset, (name, entry)) in batch.enumerated() {
                let id = batchStart + offset + 1
                let answer = try #require(client.waitFor { $0["id"] == .integer(Int64(100_000 + id)) })
                let terminal = try #require(client.waitForTerminal(id: id, timeout: 60))
                let byVoice = try #require(client.waitForTerminal(id: 200_000 + id, timeout: 60))
                if answer.event == "error" {
                    #expect(
                        byVoice["code"] == .string("invalid"),
                        "\(name) refused at set, but a post's voice: \(byVoice.text)")
                    #expect(answer["code"] == .string("invalid"), "\(name): \(answer.text)")
                    refused.append(name)
                    continue
                }
                #expect(answer.event == "ok", "\(name): \(answer.text)")
                #expect(
                    terminal["success"] == .bool(true),
                    "`set` accepted \(name) (\(entry)), then the post ended \(terminal.text)")
                #expect(byVoice["success"] == .bool(true), "a post with voice \(name) (\(entry)) ended \(byVoice.text)")
                // A language two voices list (yue) may pick either of them.
                let expected = Set(entries.filter { $0.file == name || $0.language == name }.map(\.name))
                let started = client.lines(id: 200_000 + id).first { $0.event == "started" }
                #expect(
                    started?["voice"]?.stringValue.map(expected.contains) == true,
                    "\(name) (\(entry)) spoke with \(started?.text ?? "no started line")")
                if terminal["success"] == .bool(true) { spoken += 1 }
            }
        }
        print(
            "espeak-ng --voices: \(entries.count) voices, \(names.count) names: \(spoken) spoke, \(refused.count) refused at set: \(refused)"
        )
    }

    @Test(
        "the voice names of the README's examples and of the error message all speak, by `set` and by a post's `voice`")
    func documentedNamesSpeak() throws {
        let readme = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../README.md").standardizedFileURL, encoding: .utf8)
        // The README's natural-voice example names the Piper test voice: installed and spoken when
        // the engine is fetched, else left out with a note.
        let daemon = try DaemonProcess(environment: ["ANNOUNCED_PIPER_LIBRARY_DIR": FetchedPiper.libraryDirectory])
        if FetchedPiper.isFetched {
            try FetchedPiper.install(in: daemon.voicesDirectory)
            #expect(daemon.waitForStderr(containing: "piper voices changed voices=en_us-joe-medium", timeout: 10))
        }
        let client = try daemon.connect()
        client.send(#"{"op":"set","id":1,"voice":"no-such-voice"}"#)
        let refusal = try #require(client.waitFor("error", id: 1))
        let message = refusal["message"]?.stringValue ?? ""
        // The daemon's own refusal at start lists examples too ("(e.g. en-us, en-gb, ...)").
        let refusedStart = try DaemonProcess(arguments: ["--voice", "no-such-voice"], waitForReady: false)
        #expect(refusedStart.waitForExit() == 1)
        let startMessage = refusedStart.stderrText()
        var startNames: Set<String> = []
        for list in startMessage.matches(of: /\(e\.g\. ([^)]*)\)/) {
            for name in list.1.split(separator: ",") { startNames.insert(name.trimmingCharacters(in: .whitespaces)) }
        }
        #expect(!startNames.isEmpty, "\(startMessage)")
        var names = exampleVoiceNames(in: readme).union(exampleVoiceNames(in: message)).union(startNames)
            // Titles (the README's `klingon`), `_` for `-`, and a variant.
            .union(["klingon", "English_(Great_Britain)", "pt_BR", "en-gb+f3"])
        #expect(names.contains("en_us-joe-medium"), "the README's natural-voice example: \(names.sorted())")
        if !FetchedPiper.isFetched {
            names.remove("en_us-joe-medium")
            print(
                "the Piper engine or its test voice is not fetched (scripts/fetch-piper-engine.sh): en_us-joe-medium not spoken"
            )
        }
        #expect(names.isSuperset(of: ["en-gb", "fr-fr", "de", "cmn", "en-us"]), "found \(names.sorted())")
        for (index, name) in names.sorted().enumerated() {
            let id = 10 + index * 3
            client.send(#"{"op":"set","id":\#(id),"voice":"\#(name)"}"#)
            #expect(client.waitFor { $0["id"] == .integer(Int64(id)) }?.event == "ok", "set \(name)")
            client.send(announce(id + 1, "Hi", #","rate":450"#))
            // A Piper voice's first post waits for its model to load (seconds on two cores).
            #expect(
                client.waitForTerminal(id: id + 1, timeout: 90)?["success"] == .bool(true),
                "\(name) as the default voice: \(client.lines(id: id + 1).map(\.text))")
            client.send(announce(id + 2, "Hi", #","rate":450,"voice":"\#(name)""#))
            #expect(
                client.waitForTerminal(id: id + 2, timeout: 90)?["success"] == .bool(true),
                "\(name) as a post's voice: \(client.lines(id: id + 2).map(\.text))")
        }
    }

    @Test("`--voice fr-fr` at start speaks French; an unknown voice at start exits 1 saying what to give")
    func voiceAtStart() throws {
        let daemon = try DaemonProcess(arguments: ["--voice", "fr-fr"])
        let client = try daemon.connect()
        client.send(announce(1, "Bonjour", #","rate":175"#))
        #expect(client.waitForTerminal(id: 1)?["success"] == .bool(true), "\(client.lines(id: 1).map(\.text))")
        // The default voice is French: the audio is espeak-ng's French "Bonjour", not English.
        let heard = WAVFile.trimmed(try daemon.wavSamples(seq: 1)).count
        let french = WAVFile.trimmed(try espeakReference(text: "Bonjour", voice: "roa/fr", rate: 175)).count
        let english = WAVFile.trimmed(try espeakReference(text: "Bonjour", voice: "en-us", rate: 175)).count
        #expect(
            abs(heard - french) < french / 50 && abs(heard - english) > english / 50,
            "heard \(heard), French \(french), English \(english)")

        let refused = try DaemonProcess(arguments: ["--voice", "no-such-voice"], waitForReady: false)
        #expect(refused.waitForExit() == 1)
        let stderr = refused.stderrText()
        #expect(stderr.contains("\"no-such-voice\""), "\(stderr)")
        #expect(stderr.contains("espeak-ng --voices"), "\(stderr)")
    }

    @Test("a language no voice speaks: spoken with the default voice, `queued` warns and `started` names the voice")
    func languageWithoutVoice() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        client.send(announce(1, "Hello", #","lang":"xx","rate":450"#))
        try #require(client.waitForTerminal(id: 1)?["success"] == .bool(true))
        let lines = client.lines(id: 1)
        #expect(lines.first?["warning"]?.stringValue?.contains("\"xx\"") == true, "\(lines.map(\.text))")
        #expect(lines.first { $0.event == "started" }?["voice"] == .string("en-us"))
        client.send(announce(2, "Bonjour", #","lang":"fr","rate":450"#))
        try #require(client.waitForTerminal(id: 2)?["success"] == .bool(true))
        #expect(client.lines(id: 2).first?["warning"] == nil)
        #expect(client.lines(id: 2).first { $0.event == "started" }?["voice"] == .string("fr"))
    }
}
