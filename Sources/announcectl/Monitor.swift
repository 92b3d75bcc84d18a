// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceClient
import ArgumentParser

extension Announcectl {
    /// `monitor [--json]`: a live caption view.
    struct Monitor: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print every post of every client, and status and focus changes, until interrupted.",
            discussion: """
                Human lines look like `mail #41 started (espeak-ng): 3 new messages`, naming the \
                engine that speaks (espeak-ng or piper), each language run as it starts, like `mail #41 \
                run ru, voice ru (espeak-ng): Привет` (`no voice for LANG: the post's voice V` when no \
                installed voice speaks the run's language), and `mail #41 spoken: 3 new messages`; \
                changes of the focus like `focus: save -> none`, and of the status like `status: \
                speech paused: voice en-us, rate 175, pitch 50, volume 100`. The first line \
                is the current status. SSIP clients appear under their CLIENT_NAME.
                """
        )
        @ParentCommand var parent: Announcectl

        @Flag(help: "Print the daemon's event lines as they come.")
        var json = false

        func run() async throws {
            let announcer = parent.makeAnnouncer()
            if json {
                let events = announcer.events([.status, .focus, .speech])
                do { _ = try await announcer.status() } catch { throw fail(error) }
                for await event in events { printLine(event.json.jsonText) }
                return
            }
            let events = announcer.events([.focus, .speech])
            do { _ = try await announcer.status() } catch { throw fail(error) }
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await status in announcer.statusChanges() {
                        switch status {
                        case .available(let report): printLine("status: " + StatusText.line(report))
                        case .unavailable:
                            printLine(
                                "status: announced is not reachable at \(announcer.socketPath); waiting for it to start"
                            )
                        }
                    }
                }
                group.addTask {
                    var captions = Captions()
                    for await event in events {
                        if let line = captions.line(for: event) { printLine(line) }
                    }
                }
            }
        }
    }
}

/// Turns `speech` and `focus-changed` events into caption lines, remembering each post's text and
/// client.
struct Captions {
    private var texts: [UInt64: String] = [:]
    private var clients: [UInt64: String] = [:]

    mutating func line(for event: Event) -> String? {
        switch event {
        case .speech(.started(let seq, let client, let text, let engine)):
            texts[seq] = text
            clients[seq] = client
            return "\(client) #\(seq) started\(engine.map { " (\($0))" } ?? ""): \(text)"
        case .speech(.run(let seq, let run)):
            return runLine(seq: seq, run)
        case .speech(.finished(let seq, let client, let termination)):
            clients[seq] = nil
            let text = texts.removeValue(forKey: seq)
            // Finished successfully without ever starting: the post had nothing to say.
            if termination.success && text == nil { return "\(client) #\(seq) \(AnnouncementResult.nothingToSpeak)" }
            let result = AnnouncementResult(termination, totalCharacters: text?.unicodeScalars.count ?? 0)
            let words: String
            switch result {
            case .failed(let message): words = "failed (\(message))"
            case .interrupted(let spoken, _) where text == nil: words = "interrupted after \(spoken) characters"
            default: words = result.description
            }
            return "\(client) #\(seq) \(words)" + (text.map { ": \($0)" } ?? " (never started)")
        case .speech(.dropped(let client, let reason)):
            return "\(client) \(AnnouncementResult.dropped(reason).description)"
        case .focusChanged(let from, let to, _):
            return "focus: \(from ?? "none") -> \(to ?? "none")"
        default:
            return nil
        }
    }

    /// `mail #41 run ru, voice ru (espeak-ng): Привет`, or for a language no voice speaks
    /// `mail #41 run tlh, no voice for tlh: the post's voice en-us (espeak-ng): Qapla'`.
    private func runLine(seq: UInt64, _ run: SpeechRun) -> String {
        let who = clients[seq].map { "\($0) " } ?? ""
        let voice =
            run.fallback
            ? "no voice for \(run.language): the post's voice \(run.voice)" : "voice \(run.voice)"
        var line = "\(who)#\(seq) run \(run.language), \(voice) (\(run.engine))"
        if let text = texts[seq] {
            let scalars = text.unicodeScalars
            let start = scalars.index(scalars.startIndex, offsetBy: run.range.lowerBound, limitedBy: scalars.endIndex)
            let end = scalars.index(scalars.startIndex, offsetBy: run.range.upperBound, limitedBy: scalars.endIndex)
            if let start, let end { line += ": " + String(scalars[start..<end]) }
        }
        return line
    }
}
