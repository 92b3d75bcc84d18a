// SPDX-License-Identifier: GPL-3.0-or-later
import CAnnounceLinux
import EngineSandbox
public import EngineWire
import Glibc
import SystemPackage

/// What every engine helper process shares: its two pipes (standard input: the daemon's
/// requests; standard output: its messages, `EngineWire` frames), its log (standard error, the
/// daemon's), the frame loop, `abort`, the debug build's sandbox probes and the sandbox's entry
/// (``enterSandbox(reading:allowances:switchedOffBy:around:)``). A helper's `main.swift` is its
/// ``HelperEngine`` and one call of ``run(name:engine:)``.
///
/// The helper's pause is the pipe: the daemon reads at most a pipe's worth of audio ahead of
/// playback, so a write blocks while the daemon's output is paused, and synthesis waits there.
/// One thread uses the runtime: the helper's main thread.
public final class HelperRuntime {
    /// The executable's name, which starts each line it logs (`announced-espeak`).
    public let name: String
    /// The daemon's requests.
    private let requests = FrameChannel(fd: STDIN_FILENO)
    /// The helper's messages to the daemon.
    let messages = FrameChannel(fd: STDOUT_FILENO)
    /// Set once the daemon asked to stop the utterance being spoken.
    private var stopRequested = false

    /// Runs a helper: makes its engine with `engine` (which enters the sandbox and may end the
    /// process, with ``failInitialization(code:)``), announces it, then serves the daemon's
    /// requests until the daemon closes the pipe. Exit statuses: 0 when the daemon is gone; 1
    /// when the engine cannot be initialized; 2 on a malformed request; 3 when the sandbox cannot
    /// be entered.
    public static func run(name: String, engine: (HelperRuntime) -> some HelperEngine) -> Never {
        let runtime = HelperRuntime(name: name)
        runtime.serve(engine(runtime))
    }

    private init(name: String) {
        self.name = name
        // A write to a daemon that is gone fails (EPIPE) and ends the helper, with status 0.
        signal(SIGPIPE, SIG_IGN)
        // A long text (up to `max_text_chars`, a chapter) arrives in one frame: with a fixed mmap
        // threshold its buffers are mapped and unmapped whole, so the memory goes back once it is
        // spoken (glibc would otherwise raise the threshold past them and keep them in the heap).
        _ = CAnnounceLinux_set_malloc_mmap_threshold(128 << 10)
    }

    /// Writes `line`, after the helper's name, to standard error (the daemon's log).
    public func say(_ line: String) {
        _ = try? FileDescriptor.standardError.writeAll("\(name): \(line)\n".utf8)
    }

    /// Tells the daemon the engine could not be initialized (`code` is the engine's; the reason
    /// should be on standard error already) and exits with status 1.
    public func failInitialization(code: Int32) -> Never {
        messages.write(EngineMessage.initializationFailed(code: code).frame)
        exit(1)
    }

    /// Sends `message`. False when the daemon is gone.
    @discardableResult
    public func send(_ message: EngineMessage) -> Bool {
        messages.write(message.frame)
    }

    /// Sends a `samples` message straight from `samples`. False when the daemon is gone. While the
    /// daemon's output is paused, this waits for room in the pipe.
    @discardableResult
    public func send(samples: UnsafeBufferPointer<Int16>) -> Bool {
        messages.write(EngineMessage.samplesFrame(samples))
    }

    /// Whether the daemon asked to stop the utterance being spoken: reads its `abort` when one has
    /// come. During an utterance the daemon sends nothing else: anything else ends the helper
    /// (status 2), as does the daemon closing the pipe (status 0).
    public func shouldStop() -> Bool {
        if !stopRequested, requests.hasInput {
            stopRequested = true
            guard let frame = requests.readFrame() else { exit(0) }
            if (try? EngineRequest(tag: frame.tag, payload: frame.payload)) != .abort { exit(2) }
        }
        return stopRequested
    }

    /// Announces `engine`, then answers the daemon's requests, one at a time, until it closes
    /// the pipe.
    private func serve(_ engine: some HelperEngine) -> Never {
        guard send(.ready(sampleRate: engine.sampleRate, voices: engine.voices)) else { exit(0) }
        while let frame = requests.readFrame() {
            let request: EngineRequest
            do {
                request = try EngineRequest(tag: frame.tag, payload: frame.payload)
            } catch {
                exit(2)
            }
            switch request {
            case .abort:
                // Between utterances: it crossed the last utterance's `done`.
                continue
            case .prepare(let voice):
                guard let selection = engine.prepare(voice: voice) else { continue }
                let answer: EngineMessage
                switch selection {
                case .selected:
                    answer = .voicePrepared(status: 0, message: "")
                case .unknown:
                    answer = .voicePrepared(status: 1, message: "no voice \(voice)")
                case .failed(let problem):
                    say(problem)
                    answer = .voicePrepared(status: 1, message: problem)
                }
                guard send(answer) else { exit(0) }
            case .synthesize(let utterance):
                speak(utterance, with: engine)
            }
        }
        exit(0)
    }

    /// Answers one `synthesize`: the voice, then the engine's words, marks and samples, then `done`.
    private func speak(_ utterance: SynthesisRequest, with engine: some HelperEngine) {
        #if DEBUG
            if let answer = SandboxProbe.answer(to: utterance.text) {
                // Answered as an utterance would end, so the tests read every helper's probes alike.
                send(.voiceSelected)
                send(.mark(sample: 0, name: answer))
                send(.done(status: 0))
                return
            }
        #endif
        switch engine.selectVoice(utterance.voice) {
        case .selected:
            break
        case .unknown:
            send(.voiceUnknown)
            guard send(.done(status: 0)) else { exit(0) }
            return
        case .failed(let problem):
            say(problem)
            send(.voiceFailed(message: problem))
            guard send(.done(status: 0)) else { exit(0) }
            return
        }
        guard send(.voiceSelected) else { exit(0) }
        stopRequested = false
        let status = engine.speak(utterance)
        guard send(.done(status: stopRequested ? 0 : status)) else { exit(0) }
    }
}
