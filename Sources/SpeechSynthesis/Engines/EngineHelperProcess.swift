// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import AnnouncePOSIX
import CAnnounceLinux
import EngineWire
import Glibc
import POSIXThreads
import SystemPackage

/// An engine's helper process (`announced-espeak`, `announced-piper`) and the two pipes to it.
///
/// A speech engine runs in a helper, never in the daemon: some texts crash Debian's espeak-ng
/// 1.51, a neural engine is a large library of its own, and a crash must cost one post, not the
/// daemon. Every helper speaks the same framed messages (`EngineWire`). One thread at a time
/// uses a helper: the speech thread or a Spiel stream's thread while its engine lends it, or the
/// engine's loader while the engine loads.
final class EngineHelperProcess {
    /// Which engine this is.
    let kind: EngineHelperKind
    /// The pipe from the helper holds about 90 ms of audio: with the frame the speech thread is
    /// playing and the one the helper is writing, synthesis runs at most about 200 ms ahead.
    static let pipeBytes: Int32 = 4096

    let path: String
    private(set) var sampleRate = 0
    private(set) var voices: [VoiceDescription] = []
    /// The running helper's process id; 0 when none runs.
    private(set) var pid: pid_t = 0
    /// Variables the helper gets besides ``helperOverrides`` (the tests' switches).
    var extraEnvironment: [String] = []
    private var requests: FrameChannel?
    private var messages: FrameChannel?
    /// The system call the running helper reported refused by its sandbox, if it did.
    private var refusedCall: String?
    /// How the last helper broke its sandbox ("system call socket"), when that ended it; set by
    /// `stop`, cleared by `start`.
    private(set) var sandboxBreach: String?

    /// The helper of `kind`, found where ``EngineHelperKind/candidatePaths`` says.
    /// - Throws: `SpeechSynthesisError` naming the places looked at.
    init(kind: EngineHelperKind) throws(SpeechSynthesisError) {
        self.kind = kind
        let candidates = kind.candidatePaths
        guard let found = candidates.first(where: { access($0, X_OK) == 0 }) else {
            throw kind.notFound(lookedAt: candidates)
        }
        path = found
        // A write to a helper that just died must fail with EPIPE, not kill the daemon.
        signal(SIGPIPE, SIG_IGN)
    }

    deinit { stop() }

    /// Variables the helper gets in place of the daemon's own.
    static let helperOverrides = [
        // espeak-ng's own message ("*** buffer overflow detected ***") says enough when it
        // crashes; the Swift runtime's backtrace of the helper would only flood the daemon's log.
        "SWIFT_BACKTRACE=enable=no"
    ]

    /// The daemon's environment with ``helperOverrides`` in place, as a NULL-terminated list of
    /// `malloc`ed strings for `posix_spawn` (the caller frees them).
    static func helperEnvironment(
        inherited: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, overrides: [String] = helperOverrides
    ) -> [UnsafeMutablePointer<CChar>?] {
        let overridden = overrides.map { String($0.prefix { $0 != "=" }) + "=" }
        var environment: [UnsafeMutablePointer<CChar>?] = overrides.map { strdup($0) }
        var entry = inherited
        while let variable = entry.pointee {
            if !overridden.contains(where: { strncmp(variable, $0, strlen($0)) == 0 }) {
                environment.append(strdup(variable))
            }
            entry += 1
        }
        environment.append(nil)
        return environment
    }

    /// Starts the helper and waits for its engine to be ready.
    /// - Throws: `SpeechSynthesisError` when the helper cannot be started or its engine cannot be
    ///   initialized.
    func start() throws(SpeechSynthesisError) {
        stop()
        sandboxBreach = nil
        var toHelper: [Int32] = [0, 0]
        var fromHelper: [Int32] = [0, 0]
        guard Self.makePipe(&toHelper) else { throw failure("cannot create a pipe", errno) }
        guard Self.makePipe(&fromHelper) else {
            close(toHelper[0])
            close(toHelper[1])
            throw failure("cannot create a pipe", errno)
        }
        _ = CAnnounceLinux_set_pipe_size(fromHelper[0], Self.pipeBytes)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toHelper[0], STDIN_FILENO)
        posix_spawn_file_actions_adddup2(&actions, fromHelper[1], STDOUT_FILENO)
        // The helper gets its two pipes and standard error, nothing else of the daemon's: not a
        // socket passed by systemd (which is not close-on-exec), not a client's connection (NIO
        // accepts without SOCK_CLOEXEC), not a WAV file being written.
        let closing = CAnnounceLinux_spawn_file_actions_addclosefrom(&actions, STDERR_FILENO + 1)
        // The helper starts as a new process would, not with the speech thread's signal mask and
        // dispositions: espeak-ng's thread inherits them, and the debug sandbox probe signals it.
        var attributes = posix_spawnattr_t()
        let attributesStatus = CAnnounceLinux_spawnattr_init_new_process(&attributes, 0)
        defer { if attributesStatus == 0 { posix_spawnattr_destroy(&attributes) } }
        var child: pid_t = 0
        let arguments: [UnsafeMutablePointer<CChar>?] = [strdup(path), nil]
        defer { arguments.forEach { free($0) } }
        let environment = Self.helperEnvironment(inherited: environ, overrides: Self.helperOverrides + extraEnvironment)
        defer { environment.forEach { free($0) } }
        let status =
            closing != 0
            ? closing
            : attributesStatus != 0
                ? attributesStatus : posix_spawn(&child, path, &actions, &attributes, arguments, environment)
        close(toHelper[0])
        close(fromHelper[1])
        guard status == 0 else {
            close(toHelper[1])
            close(fromHelper[0])
            throw failure("cannot start \(path)", status)
        }
        pid = child
        requests = FrameChannel(fd: toHelper[1])
        messages = FrameChannel(fd: fromHelper[0])
        let first = next()
        switch first {
        case .ready(let rate, let list)?:
            sampleRate = Int(rate)
            voices = list.map { voice in
                VoiceDescription(
                    name: voice.name, identifier: voice.identifier, languages: voice.languages,
                    gender: voice.gender == 1 ? "male" : voice.gender == 2 ? "female" : nil,
                    title: voice.title.isEmpty ? nil : voice.title, engine: kind.engine,
                    capabilities: kind.capabilities
                )
            }
        case .initializationFailed(let code)?:
            stop()
            throw kind.initializationFailed(code: code)
        default:
            let ending = stop()
            throw SpeechSynthesisError("the \(kind.engine) helper \(path) did not start: it \(ending)")
        }
    }

    /// The pipe the helper's messages come on, to poll beside another descriptor; -1 when none runs.
    var messagesDescriptor: Int32 { messages?.fd ?? -1 }

    /// Whether a message (or its start) can be read without waiting: read already, or in the pipe.
    var hasMessageWaiting: Bool { messages?.hasInput ?? false }

    /// Whether the helper is running (as far as the pipes tell).
    var isRunning: Bool { pid != 0 }

    /// Sends a request. False when the helper is gone.
    func send(_ request: EngineRequest) -> Bool {
        requests.map { request.write(to: $0) } ?? false
    }

    /// How long the helper may go without a message while the speech thread waits for one, in
    /// milliseconds: the kind's `silenceLimit`, unless `ANNOUNCED_HELPER_SILENCE_MS` sets one for
    /// every helper (tests set it short, to outlast it or meet it without waiting seconds).
    var silenceLimit: Int32 { Self.silenceLimitFromEnvironment ?? kind.silenceLimit }
    private static let silenceLimitFromEnvironment = getenv("ANNOUNCED_HELPER_SILENCE_MS")
        .flatMap { Int32(String(cString: $0)) }.flatMap { $0 > 0 ? $0 : nil }

    /// The helper's next message, waiting for it (at most `silenceLimit` milliseconds, unless
    /// `timeout` says otherwise: a model takes seconds to load); nil when the helper is gone,
    /// stuck (see `isStuck`) or sent something this build does not understand.
    func next(timeout: Int32? = nil) -> EngineMessage? {
        while let frame = messages?.readFrame(timeout: timeout ?? silenceLimit) {
            let message = try? EngineMessage(tag: frame.tag, payload: frame.payload)
            // The helper's last words before SIGSYS: kept for `stop` to tell.
            guard case .sandboxViolation(let call)? = message else { return message }
            refusedCall = call
        }
        return nil
    }

    /// Whether the last `next` gave up because the helper sent nothing for `silenceLimit`.
    var isStuck: Bool { messages?.timedOut ?? false }

    /// Closes the pipes and waits for the helper to exit (killing it if it does not go when its
    /// input ends); says how it ended, e.g. "was killed by signal 6 (SIGABRT)".
    @discardableResult
    func stop() -> String {
        guard pid != 0 else { return "was not running" }
        if let requests { close(requests.fd) }
        if let messages { close(messages.fd) }
        requests = nil
        messages = nil
        // With its pipes closed the helper exits at once (or has already died); one that is
        // stuck inside its engine is killed after a second.
        var status: Int32 = 0
        var result = waitpid(pid, &status, WNOHANG)
        var waited = 0
        while result == 0, waited < 1000 {
            sleepThread(for: .milliseconds(1))
            waited += 1
            result = waitpid(pid, &status, WNOHANG)
        }
        if result == 0 {
            kill(pid, SIGKILL)
            result = retryingOnInterrupt { waitpid(pid, &status, 0) }
        }
        pid = 0
        let call = refusedCall
        refusedCall = nil
        guard result > 0 else { return "ended" }
        let signalNumber = status & 0x7F
        if signalNumber == 0 { return "exited with status \((status >> 8) & 0xFF)" }
        let name = strsignal(signalNumber).map { String(cString: $0) } ?? "signal \(signalNumber)"
        if signalNumber == SIGSYS {
            // The sandbox's filter ends the helper with SIGSYS for a refused call; its report names the call.
            sandboxBreach = call.map { "system call \($0)" } ?? "signal \(signalNumber) (\(name))"
        }
        return "was killed by signal \(signalNumber) (\(name))"
    }

    /// A pipe whose ends are not inherited by child processes (dup2 onto the helper's standard
    /// input and output clears the flag there).
    private static func makePipe(_ ends: inout [Int32]) -> Bool {
        guard let (readEnd, writeEnd) = try? FileDescriptor.closeOnExecPipe() else { return false }
        ends = [readEnd.rawValue, writeEnd.rawValue]
        return true
    }

    private func failure(_ what: String, _ code: Int32) -> SpeechSynthesisError {
        SpeechSynthesisError("the \(kind.engine) helper: \(what): \(String(cString: strerror(code)))")
    }

    static func executableDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let path = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = path.lastIndex(of: "/") else { return nil }
        return String(path[..<slash])
    }
}
