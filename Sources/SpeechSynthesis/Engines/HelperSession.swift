// SPDX-License-Identifier: GPL-3.0-or-later
import AnnouncePOSIX
import EngineWire
import Glibc
import Logging

/// One request on an engine helper's wire, the same for every caller (the speech thread's
/// utterances and language runs, a Spiel stream): the helper's answer about the voice, its
/// samples, words and marks to its `done`, the silence limit, the stop (`abort`, then read to
/// `done`, so the helper is idle for its next request), and the helper's crash or hang.
///
/// Used by the one thread that holds the helper, from the request it sent to the helper's `done`.
final class HelperSession {
    /// The helper the request was sent to.
    let helper: EngineHelperProcess
    /// Its engine.
    let engine: any SpeechEngine
    /// Descriptors whose error or hang-up stops the request at once (a Spiel client's pipe, the
    /// provider's stop pipe); none for the speech thread, whose stops come from its own abort.
    private let cancelDescriptors: [Int32]
    /// The helper sent nothing within its silence limit while a cancel descriptor was watched.
    private var timedOut = false

    /// A session on `helper`, the helper of `engine`, stopped when one of `cancelDescriptors` hangs up.
    init(helper: EngineHelperProcess, engine: any SpeechEngine, cancelDescriptors: [Int32] = []) {
        self.helper = helper
        self.engine = engine
        self.cancelDescriptors = cancelDescriptors
    }

    /// The helper's answer about the voice of the request it was sent.
    enum VoiceAnswer {
        /// The voice is selected: samples follow.
        case selected
        /// The engine cannot speak with the voice: the post's or stream's failure. The helper
        /// was read to its `done`, so it is idle.
        case failed(String)
        /// A cancel descriptor hung up first: the helper was stopped and read to its `done`.
        case cancelled
        /// The helper ended before answering (it was stopped): how it ended.
        case ended(String)
    }

    /// How reading to `done` ended.
    enum End: Equatable {
        /// The helper's `done`, with its status (0: all of it was said).
        case done(Int32)
        /// The reader stopped taking messages: the helper was asked to stop and read to its `done`.
        case stopped
        /// A cancel descriptor hung up: the helper was asked to stop and read to its `done`.
        case cancelled
        /// The helper crashed, hung or broke its sandbox (it was stopped): the failure, as a post
        /// or a stream reports it.
        case died(String)
    }

    /// Reads the answer about the voice `voice` (its identifier, as the request named it).
    func voiceAnswer(voice: String) -> VoiceAnswer {
        switch next() {
        case .message(.voiceSelected):
            return .selected
        case .message(.voiceFailed(let why)):
            skip()
            return .failed(
                "\(engine.name) could not load the voice \(voice): \(why). `announcectl voices` lists the voices installed"
            )
        case .message(.voiceUnknown):
            skip()
            return .failed(engine.voiceUnknownMessage(voice))
        case .cancelled:
            skip()
            return .cancelled
        default:
            return .ended(helper.stop())
        }
    }

    /// Reads the helper's samples, words and marks to its `done`, handing each to `handle`. Once
    /// `handle` returns false, or a cancel descriptor hangs up, the helper is asked to stop and
    /// read on to its `done` (what comes until then is dropped). A helper that dies or sends
    /// nothing for its silence limit is stopped, and its failure logged with `metadata`.
    func read(logger: Logger, metadata: Logger.Metadata = [:], _ handle: (EngineMessage) -> Bool) -> End {
        while true {
            switch next() {
            case .message(.done(let status)):
                return .done(status)
            case .message(let message):
                guard handle(message) else {
                    skip()
                    return .stopped
                }
            case .cancelled:
                skip()
                return .cancelled
            case .gone:
                return .died(failure(logger: logger, metadata: metadata))
            }
        }
    }

    /// Stops the request the helper is on and reads to its `done`; a helper that does not get
    /// there is stopped.
    func skip() {
        _ = helper.send(.abort)
        while let message = helper.next() {
            if case .done = message { return }
        }
        helper.stop()
    }

    /// What `next` read.
    private enum Next {
        case message(EngineMessage)
        case cancelled
        case gone
    }

    /// The helper's next message, within its silence limit, or a cancel descriptor's hang-up.
    private func next() -> Next {
        guard !cancelDescriptors.isEmpty else { return helper.next().map(Next.message) ?? .gone }
        while true {
            var fds = [pollfd(fd: helper.messagesDescriptor, events: Int16(POLLIN), revents: 0)]
            fds += cancelDescriptors.map { pollfd(fd: $0, events: 0, revents: 0) }
            // A message already read into the helper's buffer does not wake poll: look for the
            // hang-up without waiting, then read it.
            let buffered = helper.hasMessageWaiting
            let ready = retryingOnInterrupt { poll(&fds, nfds_t(fds.count), buffered ? 0 : helper.silenceLimit) }
            if fds.dropFirst().contains(where: { $0.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 }) {
                return .cancelled
            }
            guard buffered || (ready > 0 && fds[0].revents != 0) else {
                timedOut = true
                return .gone
            }
            return helper.next().map(Next.message) ?? .gone
        }
    }

    /// Stops a helper that died or hung, logs it, and says what it cost.
    private func failure(logger: Logger, metadata: Logger.Metadata) -> String {
        let stuck = timedOut || helper.isStuck
        let ending = helper.stop()
        let name = engine.name
        logger.error(
            stuck ? "\(name) stopped responding" : "\(name) crashed",
            metadata: metadata.merging(["how": "\(ending)"]) { $1 })
        if let breach = helper.sandboxBreach {
            logger.error("\(name) broke its sandbox", metadata: metadata.merging(["breach": "\(breach)"]) { $1 })
            return Self.sandboxMessage(breach, engine: name)
        }
        let what =
            stuck
            ? "\(name) stopped responding while speaking this text (nothing for \(helper.silenceLimit / 1000) s; its process \(ending))"
            : "\(name) crashed while speaking this text (its process \(ending))"
        return what + "; the speech engine was restarted and later posts speak. " + engine.crashAdvice
    }

    /// The failure when the helper of `engine` broke its sandbox (`breach`: "system call socket").
    static func sandboxMessage(_ breach: String, engine: String) -> String {
        "the speech engine was stopped for breaking its sandbox (\(breach)) while speaking this text; "
            + "the engine was restarted and later posts speak. \(engine) should never need that call: please report "
            + "this text to announced's developers."
    }
}
