// SPDX-License-Identifier: Apache-2.0
internal import AnnouncePOSIX
internal import CAnnounceLinux
internal import Glibc
internal import POSIXThreads
internal import SystemPackage

/// One connection to the daemon's Unix socket and the thread that runs it (`announcer-link`):
/// the thread waits out a reconnect delay, connects, then reads and decodes the daemon's lines
/// until the connection closes, and closes its descriptors as it ends.
///
/// ``write(_:)`` never blocks its caller: what the socket does not take at once waits in the
/// connection's queue, and the thread sends it when the socket takes more. The thread is woken
/// through an eventfd, by ``close()``, ``skipDelay()`` and a write that had to queue.
final class DaemonConnection: Sendable {
    /// What the thread reports, on the thread.
    struct Handlers: Sendable {
        /// Asked once the delay is over, before connecting: false gives up without connecting.
        var proceed: @Sendable () -> Bool
        /// Connected: the connection can be written to. False closes it again.
        var connected: @Sendable (DaemonConnection) -> Bool
        /// The connect failed (a person-readable reason).
        var failed: @Sendable (String) -> Void
        /// A line from the daemon that this version can read.
        var event: @Sendable (Event) -> Void
        /// The connection closed, after `connected` accepted it.
        var closed: @Sendable () -> Void
    }

    /// What writers and the thread share.
    private struct Shared {
        /// The connected socket; nil before the connect and after the end.
        var socket: FileDescriptor?
        /// Bytes written that the socket has not taken yet, in order.
        var queued: [UInt8] = []
        /// Set by ``close()`` and when the thread ends: nothing more is written or woken.
        var closing = false
        /// Set by ``skipDelay()``: connect now.
        var skipsDelay = false
    }

    private let shared = LockedValue(Shared())
    /// Wakes the thread; raised only under `shared`'s lock while not closing.
    private let wake: WakeSignal

    /// Makes the eventfd; ``start(path:after:handlers:)`` starts the thread.
    /// - Throws: the `Errno` of the failed `eventfd` (out of descriptors).
    init() throws(Errno) {
        wake = try WakeSignal()
    }

    /// Starts the thread: after `delay` (cut short by ``skipDelay()``), it connects to `path`
    /// and reads until the connection closes.
    func start(path: String, after delay: Duration, handlers: Handlers) {
        DedicatedThread.start(name: "announcer-link", stackSize: 512 * 1024) {
            self.run(path: path, delay: delay, handlers: handlers)
        }
    }

    /// Queues `lines` for the daemon and sends what the socket takes now. Ignored once closing.
    func write(_ lines: [[UInt8]]) {
        shared.withLock { shared in
            guard !shared.closing, shared.socket != nil else { return }
            let wasIdle = shared.queued.isEmpty
            for line in lines { shared.queued += line }
            // With bytes already queued the thread is waiting to send them, and sends these after.
            guard wasIdle else { return }
            Self.sendQueued(&shared)
            if !shared.queued.isEmpty { wakeThread() }
        }
    }

    /// Ends the connection: the thread stops waiting, reading or connecting as soon as it can.
    func close() {
        shared.withLock { shared in
            guard !shared.closing else { return }
            shared.closing = true
            wakeThread()
        }
    }

    /// Connects now instead of at the end of the reconnect delay.
    func skipDelay() {
        shared.withLock { shared in
            guard !shared.closing, !shared.skipsDelay else { return }
            shared.skipsDelay = true
            wakeThread()
        }
    }

    /// Raises the wake signal; call with `shared`'s lock held and not closing.
    private func wakeThread() {
        wake.raise()
    }

    /// Sends what is queued, as much as the socket takes now; call with the lock held. A failed
    /// send drops the queue: the peer is gone, and the thread sees the connection close.
    private static func sendQueued(_ shared: inout Shared) {
        guard let socket = shared.socket else { return }
        while !shared.queued.isEmpty {
            guard let sent = try? shared.queued.withUnsafeBytes({ try socket.sendAvailable($0) }) else {
                shared.queued = []
                return
            }
            if sent == 0 { return }
            shared.queued.removeFirst(sent)
        }
    }

    /// The thread's body.
    private func run(path: String, delay: Duration, handlers: Handlers) {
        defer { end() }
        guard waitOut(delay), handlers.proceed() else { return }
        let socket: FileDescriptor
        do {
            socket = try FileDescriptor.connectUnixSocket(path: path)
        } catch {
            handlers.failed(error == .fileNameTooLong ? "the socket path is too long" : Self.describe(error))
            return
        }
        let open = shared.withLock { shared in
            if !shared.closing { shared.socket = socket }
            return !shared.closing
        }
        guard open else {
            try? socket.close()
            return
        }
        guard handlers.connected(self) else { return }
        read(from: socket, handlers: handlers)
        handlers.closed()
    }

    /// Waits `delay`, or less after ``skipDelay()``; false once closing.
    private func waitOut(_ delay: Duration) -> Bool {
        let end = ContinuousClock.now + delay
        while true {
            let (closing, skips) = shared.withLock { ($0.closing, $0.skipsDelay) }
            if closing { return false }
            let left = end - ContinuousClock.now
            if skips || left <= .zero { return true }
            let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1
            var descriptors = [pollfd(fd: wake.descriptor.rawValue, events: Int16(POLLIN), revents: 0)]
            _ = poll(&descriptors, 1, Int32(milliseconds))
            drainWake()
        }
    }

    /// Reads lines and sends what is queued until the daemon closes, a read fails, framing is
    /// lost (a line past the protocol's limit) or ``close()`` is called.
    private func read(from socket: FileDescriptor, handlers: Handlers) {
        var splitter = LineSplitter()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let sending = shared.withLock { !$0.queued.isEmpty }
            var descriptors = [
                pollfd(fd: socket.rawValue, events: Int16(POLLIN) | (sending ? Int16(POLLOUT) : 0), revents: 0),
                pollfd(fd: wake.descriptor.rawValue, events: Int16(POLLIN), revents: 0),
            ]
            if retryingOnInterrupt({ poll(&descriptors, 2, -1) }) < 0 { return }
            if descriptors[1].revents != 0 { drainWake() }
            if shared.withLock({ $0.closing }) { return }
            if descriptors[0].revents & Int16(POLLOUT) != 0 { shared.withLock { Self.sendQueued(&$0) } }
            guard descriptors[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 else { continue }
            guard let count = try? buffer.withUnsafeMutableBytes({ try socket.read(into: $0) }), count > 0 else {
                return
            }
            do {
                try buffer.withUnsafeBytes { bytes in
                    try splitter.split(UnsafeRawBufferPointer(rebasing: bytes[..<count])) { line in
                        if let event = try? Event(line: line) { handlers.event(event) }
                    }
                }
            } catch {
                return
            }
        }
    }

    /// Lowers the wake signal.
    private func drainWake() {
        wake.clear()
    }

    /// Closes the socket and the eventfd, once nothing can write to them any more.
    private func end() {
        let socket = shared.withLock { shared in
            shared.closing = true
            shared.queued = []
            defer { shared.socket = nil }
            return shared.socket
        }
        try? socket?.close()
        wake.close()
    }

    /// A person-readable reason for a failed connect: "no such file or directory".
    static func describe(_ error: Errno) -> String {
        String(cString: strerror(error.rawValue)).lowercased()
    }
}
