// SPDX-License-Identifier: GPL-3.0-or-later
import AnnouncePOSIX
import CAnnounceLinux
import Glibc

/// A daemon started in the background by `announced --spawn`, which outlives the command.
///
/// It is started with posix_spawn as the espeak-ng helper is, and inherits as little: a session
/// of its own (no controlling terminal, no signal from the client's terminal), `/` as its working
/// directory, standard input and output on `/dev/null` (python3-speechd reads the spawn command's
/// output to its end, which would otherwise wait for the daemon to exit), standard error on its
/// log file, no other descriptor (closefrom), default signal dispositions and mask, and only the
/// environment variables a daemon reads (``keptVariables``). It tells when it serves through
/// `NOTIFY_SOCKET` (`READY=1`, as it tells systemd), on a private datagram socket, and its end
/// through a pidfd: the command waits on those two events, not on a clock.
final class DetachedDaemon {
    /// The process id.
    let pid: pid_t
    /// Readable once the process has ended.
    private let processDescriptor: Int32
    /// Receives the daemon's `READY=1`.
    private let readiness: ReadinessSocket

    /// Why the daemon could not be started or did not come up.
    struct Failure: Error, CustomStringConvertible {
        /// One sentence, without the `announced:` prefix.
        var description: String
    }

    /// Variables the daemon gets from the spawning process's environment: what it, libpulse,
    /// espeak-ng and the sanitizers read. Everything else (the client's `LISTEN_FDS`,
    /// `NOTIFY_SOCKET`, `JOURNAL_STREAM`, `SPEECHD_*`, secrets) stays behind.
    static let keptVariables: Set<String> = [
        "HOME", "PATH", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ", "TMPDIR", "DBUS_SESSION_BUS_ADDRESS",
        "ESPEAK_DATA_PATH", "SWIFT_BACKTRACE", "ASAN_OPTIONS", "TSAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS",
    ]
    /// Prefixes of the variables kept as well: announced's own settings, the XDG directories,
    /// PulseAudio's and ALSA's, and the locale.
    static let keptPrefixes = ["ANNOUNCED_", "XDG_", "PULSE_", "ALSA_", "LC_"]

    /// The environment the daemon starts with: `environment` narrowed to ``keptVariables``,
    /// with `NOTIFY_SOCKET` set to `notifySocket`.
    static func environment(from environment: [String: String], notifySocket: String) -> [String: String] {
        var kept = environment.filter { name, _ in
            keptVariables.contains(name) || keptPrefixes.contains { name.hasPrefix($0) }
        }
        kept["NOTIFY_SOCKET"] = notifySocket
        return kept
    }

    /// Starts `executable` with `arguments`, its standard error appended to `log`.
    init(executable: String, arguments: [String], environment: [String: String], log: Int32) throws(Failure) {
        readiness = try ReadinessSocket()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var status = posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        if status == 0 { status = posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0) }
        if status == 0 { status = posix_spawn_file_actions_adddup2(&actions, log, STDERR_FILENO) }
        if status == 0 { status = CAnnounceLinux_spawn_file_actions_addclosefrom(&actions, STDERR_FILENO + 1) }
        if status == 0 { status = CAnnounceLinux_spawn_file_actions_addchdir(&actions, "/") }

        var attributes = posix_spawnattr_t()
        let attributesStatus = CAnnounceLinux_spawnattr_init_new_process(
            &attributes, CAnnounceLinux_spawn_setsid_flag())
        defer { if attributesStatus == 0 { posix_spawnattr_destroy(&attributes) } }
        if status == 0 { status = attributesStatus }

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let variables = Self.environment(from: environment, notifySocket: readiness.name)
        let envp: [UnsafeMutablePointer<CChar>?] = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var child: pid_t = 0
        if status == 0 { status = posix_spawn(&child, executable, &actions, &attributes, argv, envp) }
        guard status == 0 else {
            throw Failure(description: "cannot start \(executable): \(String(cString: strerror(status)))")
        }
        pid = child
        processDescriptor = CAnnounceLinux_pidfd_open(child)
        guard processDescriptor >= 0 else {
            kill(child, SIGTERM)
            throw Failure(
                description:
                    "cannot watch the daemon it started (pidfd_open: \(String(cString: strerror(errno)))); this needs Linux 5.3 or newer"
            )
        }
    }

    deinit { close(processDescriptor) }

    /// How waiting for the daemon ended.
    enum Outcome: Equatable {
        /// It sent `READY=1`.
        case ready
        /// It ended first, with this wait status.
        case exited(Int32)
        /// Neither happened before the deadline.
        case timedOut
    }

    /// Waits until the daemon says `READY=1` or ends, at most until `deadline`.
    func waitUntilReady(deadline: ContinuousClock.Instant) -> Outcome {
        while true {
            var descriptors = [
                pollfd(fd: readiness.descriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: processDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            let result = retryingOnInterrupt { poll(&descriptors, 2, Self.milliseconds(until: deadline)) }
            if result <= 0 { return .timedOut }
            if descriptors[1].revents != 0 { return .exited(reap()) }
            if descriptors[0].revents != 0, readiness.receivedReady() { return .ready }
        }
    }

    /// Waits until `accepts()` is true (tried again each 10 ms: the socket gives no event when
    /// it starts listening) or the daemon ends, at most until `deadline`.
    func waitUntil(deadline: ContinuousClock.Instant, _ accepts: () -> Bool) -> Outcome {
        while true {
            if accepts() { return .ready }
            var descriptor = pollfd(fd: processDescriptor, events: Int16(POLLIN), revents: 0)
            let result = retryingOnInterrupt { poll(&descriptor, 1, min(10, Self.milliseconds(until: deadline))) }
            if result > 0 { return .exited(reap()) }
            if ContinuousClock.now >= deadline { return .timedOut }
        }
    }

    /// The ended daemon's wait status.
    private func reap() -> Int32 {
        var status: Int32 = 0
        _ = retryingOnInterrupt { waitpid(pid, &status, 0) }
        return status
    }

    /// The time left until `deadline`, for poll.
    private static func milliseconds(until deadline: ContinuousClock.Instant) -> Int32 {
        let left = ContinuousClock.now.duration(to: deadline)
        guard left > .zero else { return 0 }
        let (seconds, attoseconds) = left.components
        return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
    }
}

/// A datagram socket in the abstract namespace standing in for systemd's `NOTIFY_SOCKET`: the
/// daemon sends `READY=1` to it once it serves. Abstract, so there is no file to clean up.
private final class ReadinessSocket {
    /// The socket.
    let descriptor: Int32
    /// The name to put in `NOTIFY_SOCKET` (`@` for the abstract namespace, as systemd writes it).
    let name: String

    init() throws(DetachedDaemon.Failure) {
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else {
            throw DetachedDaemon.Failure(
                description: "cannot create a socket to hear from the daemon: \(String(cString: strerror(errno)))")
        }
        let abstract = "announced-spawn-\(getpid())-\(String(UInt64.random(in: 0...UInt64.max), radix: 16))"
        name = "@" + abstract
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = [0] + Array(abstract.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0 else {
            let code = errno
            close(descriptor)
            throw DetachedDaemon.Failure(
                description: "cannot create a socket to hear from the daemon: \(String(cString: strerror(code)))")
        }
    }

    deinit { close(descriptor) }

    /// Reads one datagram; true when it says `READY=1`.
    func receivedReady() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        guard count > 0 else { return false }
        return String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n").contains("READY=1")
    }
}
