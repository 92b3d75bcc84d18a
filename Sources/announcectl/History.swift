// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceClient
import ArgumentParser
import Glibc

extension Announcectl {
    /// `history [--json] [-n N]`.
    struct History: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the last announcements, newest first: time, client, how each ended, text.",
            discussion: """
                The daemon keeps the last history_size announcements (50 by default; 0 keeps none) in \
                memory only, never on disk: native and toolkit announcements, SSIP messages only with \
                history_ssip. A text is kept up to its first 1000 characters (shown ending in …). \
                A client of another user (allow_uids) sees only its own user's announcements. \
                announcectl repeat speaks one again.
                """)
        @ParentCommand var parent: Announcectl

        @Option(name: .customShort("n"), help: ArgumentHelp("Only the newest N announcements.", valueName: "N"))
        var count: Int?

        @Flag(help: "Print each entry as one JSON line, as the daemon sends it.")
        var json = false

        func validate() throws {
            if let count, count < 1 { throw ValidationError("-n must be 1 or more") }
        }

        func run() async throws {
            let entries: [HistoryEntry]
            do { entries = try await parent.makeAnnouncer().history(limit: count) } catch { throw fail(error) }
            for entry in entries {
                printLine(json ? JSONValue.object(entry.jsonObject).jsonText : HistoryText.line(entry))
            }
        }
    }

    /// `repeat [N]`.
    struct Repeat: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Speak the last announcement again (or the Nth newest), in the voice it was spoken in.",
            discussion: """
                N counts from the newest: 1 (the default) is the last announcement, 2 the one before, \
                as announcectl history lists them. The text is posted again as a new announcement \
                of announcectl, with the entry's voice and language, and interrupts what is speaking. \
                Bind "announcectl repeat" to a key of your desktop for a "say that again" key \
                (the README shows how for GNOME and KDE).
                """)
        @ParentCommand var parent: Announcectl

        @Argument(help: ArgumentHelp("Which announcement: 1 is the newest.", valueName: "N"))
        var number: Int = 1

        @OptionGroup var waiting: WaitOption

        func validate() throws {
            if number < 1 { throw ValidationError("N must be 1 or more: 1 is the newest announcement") }
        }

        func run() async throws {
            let announcer = parent.makeAnnouncer()
            let entries: [HistoryEntry]
            do { entries = try await announcer.history(limit: number) } catch { throw fail(error) }
            guard let entry = entries.count >= number ? entries[number - 1] : nil else {
                printError(HistoryText.missing(number, kept: entries.count))
                throw ExitCode(ExitStatus.failure)
            }
            var options = SpeechOptions()
            options.voice = entry.voice
            options.lang = entry.language
            options.ssml = entry.ssml && !entry.truncated
            try finish(with: await announcer.send(.announce(entry.text, options: options), wait: waiting.wait))
        }
    }
}

/// History entries in words.
enum HistoryText {
    /// One line: local time, client, how it ended, and the text in quotes.
    static func line(_ entry: HistoryEntry) -> String {
        let text = entry.text.map { $0.isNewline ? " " : $0 }
        return
            "\(localTime(entry.time))  \(entry.client)  \(ending(entry.ending))  \"\(String(text))\(entry.truncated ? "…" : "")\""
    }

    /// How it ended: `spoken`, `interrupted after 12 characters`, `dropped (off-main)`, ...
    static func ending(_ ending: HistoryEnding) -> String {
        switch ending {
        case .spoken: return "spoken"
        case .ended(.error, _, let message): return "error" + (message.map { " (\($0))" } ?? "")
        case .ended(let reason, let spoken, _) where spoken > 0:
            return "\(reason.rawValue) after \(spoken) characters"
        case .ended(let reason, _, _): return reason.rawValue
        case .dropped(let reason): return "dropped (\(reason.rawValue))"
        }
    }

    /// Why `repeat N` has nothing to speak, and what to do.
    static func missing(_ number: Int, kept: Int) -> String {
        if kept == 0 {
            return "nothing to repeat: the history is empty (nothing announced since the daemon started, "
                + "or history_size is 0 in its configuration: set it, then reload with SIGHUP)"
        }
        return "there \(kept == 1 ? "is" : "are") only \(kept) announcement\(kept == 1 ? "" : "s") in the history; "
            + "give N from 1 to \(kept) (announcectl history lists them, newest first)"
    }

    /// `2026-11-28T08:00:00Z` in local time, `2026-11-28 09:00:00`; the text as it is when it
    /// is not in that form.
    static func localTime(_ utc: String) -> String {
        let digits = utc.unicodeScalars.filter { ("0"..."9").contains($0) }
        guard utc.unicodeScalars.count == 20, utc.hasSuffix("Z"), digits.count == 14 else { return utc }
        let numbers = String(String.UnicodeScalarView(digits))
        func field(_ start: Int, _ length: Int) -> Int32 {
            let from = numbers.index(numbers.startIndex, offsetBy: start)
            return Int32(numbers[from..<numbers.index(from, offsetBy: length)]) ?? 0
        }
        var parts = tm()
        parts.tm_year = field(0, 4) - 1900
        parts.tm_mon = field(4, 2) - 1
        parts.tm_mday = field(6, 2)
        parts.tm_hour = field(8, 2)
        parts.tm_min = field(10, 2)
        parts.tm_sec = field(12, 2)
        var seconds = timegm(&parts)
        var local = tm()
        localtime_r(&seconds, &local)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M:%S", &local)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
