// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceClient
import ArgumentParser

extension Announcectl {
    /// `status [--json]`.
    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show whether speech is on, what is speaking and the defaults.",
            discussion: """
                Also shows whether a screen reader runs on the desktop ("desktop: screen reader \
                running", "screen_reader": true with --json): the daemon follows org.a11y.Status's \
                ScreenReaderEnabled on the session bus, which GNOME sets while Orca runs; without a \
                session bus or at-spi2-core it says no screen reader. Under "clients", each \
                connected client is listed with the entry of the configuration's "clients" it matched \
                ("clients entry \"*:Orca:*\"") or "the defaults" ("client_settings" with --json).
                """)
        @ParentCommand var parent: Announcectl

        @Flag(help: "Print the status as one JSON line.")
        var json = false

        func run() async throws {
            let announcer = parent.makeAnnouncer()
            let report: StatusReport
            do { report = try await announcer.status() } catch { throw fail(error) }
            if json {
                print(JSONValue.object(report.jsonObject).jsonText)
            } else {
                print(StatusText.block(report, socketPath: announcer.socketPath))
            }
        }
    }
}

/// Status reports in words.
enum StatusText {
    /// A short aligned block, one fact per line.
    static func block(_ report: StatusReport, socketPath: String) -> String {
        var rows: [(String, String)] = [
            ("speech", speechState(report)),
            ("speaking", speakingLine(report)),
            ("pending", "\(report.pending)"),
            ("voice", report.voice),
            ("rate", "\(report.rate) words per minute"),
            ("pitch", "\(report.pitch)"),
            ("volume", "\(report.volume)"),
            ("punctuation", report.punctuation.rawValue),
            ("audio", report.audio),
            ("clients", "\(report.clients)"),
        ]
        // Each connected client with the `clients` entry of the configuration it speaks with.
        rows += report.clientSettings.map { client in
            ("", "\(client.name): " + (client.matched.map { "clients entry \"\($0)\"" } ?? "the defaults"))
        }
        rows += [
            ("focus", report.focus ?? "none"),
            ("desktop", report.screenReader ? "screen reader running" : "no screen reader"),
            ("uptime", "\(report.uptimeSeconds) s"),
            ("version", report.version),
            ("socket", socketPath),
        ]
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { $0.0.padded(to: width + 2) + $0.1 }.joined(separator: "\n")
    }

    /// "no", or what is speaking and whose it is: `mail: "3 new messages"`.
    static func speakingLine(_ report: StatusReport) -> String {
        guard report.speaking else { return "no" }
        guard let text = report.speakingText else { return "yes" }
        return "\(report.speakingClient ?? "a client"): \"\(text)\""
    }

    /// `muted`, `paused` or `on`.
    static func speechState(_ report: StatusReport) -> String {
        report.muted ? "muted" : report.paused ? "paused" : "on"
    }

    /// One line: "speech on: voice en-us, rate 175, pitch 50, volume 100" (or "speech paused: ..."),
    /// ending ", screen reader running" while one runs.
    static func line(_ report: StatusReport) -> String {
        "speech \(speechState(report)): voice \(report.voice), rate \(report.rate), pitch \(report.pitch), volume \(report.volume)"
            + (report.screenReader ? ", screen reader running" : "")
    }
}
