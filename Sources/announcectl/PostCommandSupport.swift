// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceClient
public import ArgumentParser
// The project's one lock (LockedValue over ConditionLock, a pthread mutex): Synchronization.Mutex
// hands over in a PI futex that ThreadSanitizer cannot see (see CONTRIBUTING.md, "Sanitizers").
import POSIXThreads

/// The `--wait` flag shared by every posting command.
struct WaitOption: ParsableArguments {
    @Flag(help: "Wait until the post ends, print how it ended, and exit 0 only if it was spoken to the end.")
    var wait = false
}

/// How a posting command shows a post: what to print while it speaks and how it ended.
struct PostDisplay: Sendable {
    /// The voice the command asked for, to say when another one spoke.
    var askedVoice: String?
    /// Print each word (and SSML mark) as it is heard (needs `--wait`).
    var words = false
    /// Print the daemon's lines as JSON instead of words.
    var json = false
}

/// What was learned about a post from its lines so far.
private struct PostProgress: Sendable {
    var text: String?
    var voice: String?
    var warning: String?
    var terminal: Event?
    var queuedLine: Event?
}

extension Announcer {
    /// Sends `post`; with `wait`, waits for its end and prints it. Returns the exit status.
    ///
    /// Without `wait` the status is 0 only when the post is queued and will be spoken: a muted
    /// daemon (asked first) or a refusal prints why on standard error and exits non-zero.
    func send(_ post: SpeechPost, wait: Bool, id: RequestID? = nil, display: PostDisplay = PostDisplay()) async -> Int32
    {
        await send(wait: wait, display: display) { observe in
            await self.post(post, id: id, untilQueued: !wait, observe: observe)
        }
    }

    /// Sends `char`, `key` or `sound` like ``send(_:wait:id:display:)``.
    func send(_ speech: ShortSpeech, options: SpeechOptions, wait: Bool) async -> Int32 {
        await send(wait: wait, display: PostDisplay(askedVoice: options.voice)) { observe in
            await self.speak(speech, options: options, untilQueued: !wait, observe: observe)
        }
    }

    /// Sends a speech request with `sending` and reports it; returns the exit status.
    private func send(
        wait: Bool, display: PostDisplay, _ sending: (@escaping @Sendable (Event) -> Void) async -> EnqueueResult
    ) async -> Int32 {
        var mutedBeforehand = false
        if !wait, case .available(let report) = await speechStatus(), report.muted {
            mutedBeforehand = true
        }
        let progress = LockedValue(PostProgress())
        let result = await sending { event in
            let line = progress.withLock { progress -> String? in
                switch event {
                case .queued(_, _, let warning):
                    progress.warning = warning
                    progress.queuedLine = event
                    if let warning { printError("warning: \(warning)") }
                case .started(_, _, let text, let voice):
                    progress.text = text
                    progress.voice = voice
                case .word(_, _, let offset, let length) where display.words:
                    guard !display.json else { return event.json.jsonText }
                    let scalars = Array((progress.text ?? "").unicodeScalars)
                    guard offset >= 0, offset < scalars.count else { return nil }
                    var word = String.UnicodeScalarView()
                    word.append(contentsOf: scalars[offset..<min(scalars.count, offset + length)])
                    return "word: \(String(word))"
                case .mark(_, _, let name) where display.words:
                    return display.json ? event.json.jsonText : "mark: \(name)"
                default:
                    if event.isTerminal { progress.terminal = event }
                }
                return nil
            }
            if let line { printLine(line) }
        }
        let seen = progress.withLock { $0 }
        switch result {
        case .queued:
            if display.json, let queued = seen.queuedLine { printLine(queued.json.jsonText) }
            if mutedBeforehand {
                printError(
                    "warning: speech is muted, so this post ends muted without being heard (`announcectl unmute` turns speech back on)"
                )
                return ExitStatus.notSpoken
            }
            return ExitStatus.success
        case .refused(let outcome):
            if display.json, let terminal = seen.terminal {
                printLine(terminal.json.jsonText)
            } else if display.json, case .unavailable = outcome {
                report(outcome)
            } else if case .spoken = outcome, let voice = seen.voice,
                Self.differs(voice, from: display.askedVoice) || seen.warning != nil
            {
                printLine("spoken (voice \(voice))")
            } else {
                report(outcome)
            }
            return ExitStatus.of(outcome)
        }
    }

    /// True when the voice that spoke is not the one asked for (by its name or file name).
    static func differs(_ spoke: String, from asked: String?) -> Bool {
        guard let asked = asked?.lowercased() else { return false }
        let base = spoke.split(separator: "+").first.map(String.init) ?? spoke
        return asked != spoke && asked != base && !asked.hasSuffix("/" + base)
    }

    /// Whether a daemon answers and whether it is muted; unavailable when it cannot be asked.
    func speechStatus() async -> SpeechStatus {
        guard let report = try? await status() else { return .unavailable }
        return .available(report)
    }
}

extension Priority: ExpressibleByArgument {}
extension Trait: ExpressibleByArgument {}
extension Punctuation: ExpressibleByArgument {}
