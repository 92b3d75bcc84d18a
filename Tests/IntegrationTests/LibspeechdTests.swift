// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import Foundation
import TestSupport
import Testing

/// The C programs in Fixtures (libspeechd_priorities.c, libspeechd_long_message.c), each built
/// with the part they share (libspeechd_client.c) against Debian's libspeechd.
enum LibspeechdProgram {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// True when a C compiler, pkg-config and libspeechd's header are installed.
    static var canBuild: Bool {
        installedTool("cc") != nil && installedTool("pkg-config") != nil
            && FileManager.default.fileExists(atPath: "/usr/include/speech-dispatcher/libspeechd.h")
    }

    /// Compiles Fixtures/`name`.c with Fixtures/libspeechd_client.c into `directory`; its path.
    static func build(in directory: URL, _ name: String = "libspeechd_priorities") throws -> String {
        let flags = try run(try #require(installedTool("pkg-config")), ["--cflags", "--libs", "speech-dispatcher"])
        let output = directory.appendingPathComponent(name).path
        let sources = [name, "libspeechd_client"].map { fixtures.appendingPathComponent($0 + ".c").path }
        let arguments =
            ["-Wall", "-Werror", "-o", output] + sources + flags.split(separator: " ").map(String.init) + ["-lpthread"]
        _ = try run(try #require(installedTool("cc")), arguments)
        return output
    }

    /// Runs a build tool; its standard output, or an error with what it said.
    private static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let result = try AnnouncectlProcess.run(arguments, executable: URL(fileURLWithPath: tool))
        guard result.status == 0 else {
            throw SSIPClientError(
                "\(tool) \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.stderr)")
        }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// What the program printed: the ids spd_say returned by label, and every callback in order.
struct LibspeechdTranscript {
    var said: [String: Int] = [:]
    var sent: [String] = []
    var events: [(kind: String, id: Int)] = []
    var failures: [String] = []
    var closed = false

    init(_ output: String) {
        for line in output.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            switch words.first {
            case "SAID" where words.count == 3: said[words[1]] = Int(words[2])
            case "SENT" where words.count == 2: sent.append(words[1])
            case "EVENT" where words.count == 3: events.append((words[1], Int(words[2]) ?? -1))
            case "CLOSED": closed = true
            default: failures.append(String(line))
            }
        }
    }

    /// The callbacks for message `id`, in order (`BEGIN`, `END`, `CANCEL`).
    func kinds(_ id: Int) -> [String] { events.filter { $0.id == id }.map(\.kind) }

    /// The callbacks for the message labelled `label`.
    func kinds(of label: String) -> [String] { said[label].map { kinds($0) } ?? ["never said"] }
}

@Suite(
    "libspeechd: a C client in THREADED mode on the SSIP socket", .daemonTimeLimit, .onBlockingThreads,
    .enabled(if: LibspeechdProgram.canBuild, "needs cc, pkg-config and libspeechd-dev (apt-get install libspeechd-dev)")
)
struct LibspeechdTests {
    @Test("every message gets exactly one END or CANCEL, and the five priorities act as SSIP says")
    func prioritiesAndCallbacks() throws {
        let transcript = try Self.run([])
        #expect(transcript.sent == ["cancel_all", "char", "key", "sound_icon"])
        let labels = [
            "text1", "notification", "important", "text2", "text3", "message", "text4", "progress1", "last",
            "progress2",
        ]
        #expect(Set(transcript.said.keys) == Set(labels))

        // Exactly one END or CANCEL for every message id: those spd_say returned, and the three of
        // spd_char, spd_key and spd_sound_icon (which return 0, not the id), each BEGIN before it.
        let ids = Set(transcript.events.map(\.id))
        let unnamed = ids.subtracting(transcript.said.values)
        #expect(unnamed.count == 3, "one id each for the character, the key and the icon: \(unnamed.sorted())")
        for id in ids.union(transcript.said.values) {
            let kinds = transcript.kinds(id)
            #expect(kinds.count { $0 == "END" || $0 == "CANCEL" } == 1, "message \(id): \(kinds)")
            #expect(kinds.last == "END" || kinds.last == "CANCEL", "message \(id): \(kinds)")
            #expect(kinds.count { $0 == "BEGIN" } <= 1, "message \(id): \(kinds)")
        }

        // A notification while a text speaks is discarded: CANCEL without BEGIN.
        #expect(transcript.kinds(of: "notification") == ["CANCEL"])
        // An important message interrupts the speaking text and is spoken to its end.
        #expect(transcript.kinds(of: "text1") == ["BEGIN", "CANCEL"])
        #expect(transcript.kinds(of: "important") == ["BEGIN", "END"])
        // A newer text ends the speaking one.
        #expect(transcript.kinds(of: "text2") == ["BEGIN", "CANCEL"])
        #expect(transcript.kinds(of: "text3") == ["BEGIN", "END"])
        // A text waits behind a message (it never began); a progress message is discarded;
        // spd_cancel_all ends both the speaking message and the waiting text.
        #expect(transcript.kinds(of: "message") == ["BEGIN", "CANCEL"])
        #expect(transcript.kinds(of: "text4") == ["CANCEL"])
        #expect(transcript.kinds(of: "progress1") == ["CANCEL"])
        // The character, key and icon are spoken first come, first served with the message after them.
        for id in unnamed { #expect(transcript.kinds(id).last == "END", "message \(id): \(transcript.kinds(id))") }
        let lastEnd = transcript.events.firstIndex { $0.kind == "END" && $0.id == transcript.said["last"] }
        for id in unnamed {
            let end = transcript.events.firstIndex { $0.kind == "END" && $0.id == id }
            #expect(
                end != nil && lastEnd != nil && end! < lastEnd!, "message \(id) ended before the message sent after it")
        }
        #expect(transcript.kinds(of: "last") == ["BEGIN", "END"])
        // A progress message with nothing else speaking is spoken.
        #expect(transcript.kinds(of: "progress2") == ["BEGIN", "END"])
    }

    @Test(
        "two messages with no priority set (libspeechd's raw SPEAK): both spoken to their end, BEGIN and END each, no CANCEL"
    )
    func defaultPriorityIsMessage() throws {
        let transcript = try Self.run(["default"])
        #expect(transcript.kinds(of: "first") == ["BEGIN", "END"])
        #expect(transcript.kinds(of: "second") == ["BEGIN", "END"])
    }

    /// The program's transcript, run with `arguments` against a fresh daemon to its end; that
    /// it succeeded, saw no failure and closed its connection is checked here.
    private static func run(_ arguments: [String]) throws -> LibspeechdTranscript {
        let ssip = try SSIPDaemon(audio: "null")
        let program = try LibspeechdProgram.build(in: ssip.daemon.directory)
        let client = try SSIPClientProcess.start(program, arguments, daemon: ssip)
        client.finishInput()
        let result = client.finish(timeout: 300)
        let transcript = LibspeechdTranscript(result.stdout)
        #expect(result.status == 0, "the program failed; it printed:\n\(result.stdout)\(result.stderr)")
        #expect(transcript.failures.isEmpty)
        #expect(transcript.closed)
        return transcript
    }
}
