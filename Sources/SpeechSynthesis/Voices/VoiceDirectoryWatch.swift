// SPDX-License-Identifier: GPL-3.0-or-later
import AnnouncePOSIX
import Glibc
import POSIXThreads
import SystemPackage

/// An inotify watch on the voice directories, for the voice catalog's thread: ``waitForChange()``
/// blocks until something in them changed and the change has settled, until someone asks for the
/// voices as they are now (``whenSettled(_:)``), or until ``stop(then:)``.
///
/// A directory that exists is watched for files created, written, moved in or out, and removed;
/// one that does not is watched for through its nearest existing parent, for a directory created
/// or moved in; the watches are set again after every change, so a directory created, removed or
/// replaced later is followed. A change counts once the directories have been still for
/// ``settleTime``: a file being copied in keeps them busy until it is whole.
// Unchecked: `watched` belongs to the catalog's thread; the rest of its mutable state is touched with `lock` held.
final class VoiceDirectoryWatch: @unchecked Sendable {
    /// How long the directories must stay still after a change before it counts: a copy writes a
    /// pair in several steps, and a large model in many writes.
    static let settleTime: Int32 = 100

    private static let voiceDirectoryEvents =
        UInt32(IN_CREATE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE)
        | UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
    private static let parentEvents = UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

    private let directories: [String]
    private let inotify: Int32
    /// Raised by `stop` and `whenSettled`; the thread polls it.
    private let wakeSignal: WakeSignal
    /// The watched paths by watch descriptor; only the catalog's thread uses it.
    private var watched: [Int32: String] = [:]
    /// Guards `stopping`, `closed`, `whenClosed` and `settleWaiters`.
    private let lock = ConditionLock()
    private var stopping = false
    private var closed = false
    private var whenClosed: [@Sendable () -> Void] = []
    /// Who asked for the voices as they are now and waits for the changes made before they asked.
    private var settleWaiters: [@Sendable () -> Void] = []

    /// What ``waitForChange()`` woke for.
    enum Wake {
        /// A change settled: scan, then call `waiters`.
        case changed(waiters: [@Sendable () -> Void])
        /// Someone asked and nothing had changed: call `waiters`, the last scan is current.
        case unchanged(waiters: [@Sendable () -> Void])
        /// ``stop(then:)`` was called.
        case stopped
    }

    /// Watches `directories`; nil when inotify or an eventfd cannot be had (`errno` says why).
    init?(directories: [String]) {
        let inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard inotify >= 0 else { return nil }
        guard let wakeSignal = try? WakeSignal() else {
            Glibc.close(inotify)
            return nil
        }
        self.directories = directories
        self.inotify = inotify
        self.wakeSignal = wakeSignal
        rearm()
    }

    /// Blocks until a change in the directories has settled, until someone waits in
    /// ``whenSettled(_:)`` while nothing has changed, or until `stop`. On the catalog's thread.
    ///
    /// A change made before someone asked is queued in the inotify descriptor by then (the kernel
    /// queues an event as the change is made), so reading the descriptor at the wake tells
    /// whether the one who asked must wait for the change to settle and be scanned.
    func waitForChange() -> Wake {
        var changed = false
        var waiters: [@Sendable () -> Void] = []
        while true {
            // Blocks until the first change; then waits for the directories to be still.
            switch poll(timeout: changed ? Self.settleTime : -1) {
            case .wake:
                clearWake()
                let (stop, asked) = lock.withLock {
                    defer { settleWaiters = [] }
                    return (stopping, settleWaiters)
                }
                if stop { return .stopped }
                waiters += asked
                if readEvents() { changed = true }
                if !changed { return .unchanged(waiters: waiters) }
            case .events:
                if readEvents() { changed = true }
            case .failed:
                return .stopped
            case .quiet:
                rearm()
                return .changed(waiters: waiters)
            }
        }
    }

    /// Calls `settled` (on the catalog's thread) once every change made to the directories
    /// before this call has been scanned: at the thread's next wake when nothing has changed,
    /// after the scan that follows the change otherwise. Once the watch is stopping, at once (on
    /// the caller's thread, or the catalog's as it closes): the list will not change any more.
    func whenSettled(_ settled: @escaping @Sendable () -> Void) {
        let stopped = lock.withLock {
            if !stopping { settleWaiters.append(settled) }
            return stopping
        }
        if stopped { return settled() }
        wakeSignal.raise()
    }

    /// Ends `waitForChange`; `stopped` is called once the thread has closed the watch.
    func stop(then stopped: @escaping @Sendable () -> Void) {
        let alreadyClosed = lock.withLock {
            stopping = true
            if !closed { whenClosed.append(stopped) }
            return closed
        }
        if alreadyClosed { return stopped() }
        wakeSignal.raise()
    }

    /// Closes the watch, after `waitForChange` returned false. On the catalog's thread.
    func close() {
        Glibc.close(inotify)
        wakeSignal.close()
        let (waiting, asked) = lock.withLock {
            stopping = true
            closed = true
            defer {
                whenClosed = []
                settleWaiters = []
            }
            return (whenClosed, settleWaiters)
        }
        for settled in asked { settled() }
        for stopped in waiting { stopped() }
    }

    private enum Wait {
        case wake
        case events
        case quiet
        case failed
    }

    /// Lowers the wake signal (`stop` and `whenSettled` raise it; the state is under the lock,
    /// so the signal only wakes).
    private func clearWake() {
        wakeSignal.clear()
    }

    private func poll(timeout: Int32) -> Wait {
        var fds = [
            pollfd(fd: wakeSignal.descriptor.rawValue, events: Int16(POLLIN), revents: 0),
            pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
        ]
        let ready = retryingOnInterrupt { Glibc.poll(&fds, 2, timeout) }
        if ready <= 0 { return ready == 0 ? .quiet : .failed }
        return fds[0].revents != 0 ? .wake : .events
    }

    /// Reads every queued event; true when there was one. Every event the watches ask for may
    /// change the voices or the watches (`IN_IGNORED`, a watch gone with its directory, too).
    private func readEvents() -> Bool {
        var any = false
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            // Non-blocking: EAGAIN once every queued event has been read.
            let count =
                (try? buffer.withUnsafeMutableBytes { try FileDescriptor(rawValue: inotify).read(into: $0) }) ?? 0
            guard count > 0 else { return any }
            any = true
        }
    }

    /// Watches each directory that exists, and the nearest existing parent of each that does not;
    /// drops the watches no longer needed.
    private func rearm() {
        var wanted: [String: UInt32] = [:]
        for directory in directories {
            if isDirectory(directory) {
                wanted[directory, default: 0] |= Self.voiceDirectoryEvents
                continue
            }
            var parent = directory
            repeat {
                parent = String(parent[..<(parent.lastIndex(of: "/") ?? parent.startIndex)])
            } while !parent.isEmpty && !isDirectory(parent)
            wanted[parent.isEmpty ? "/" : parent, default: 0] |= Self.parentEvents
        }
        var now: [Int32: String] = [:]
        for (path, mask) in wanted {
            let wd = inotify_add_watch(inotify, path, mask)
            if wd >= 0 { now[wd] = path }
        }
        for wd in watched.keys where now[wd] == nil {
            inotify_rm_watch(inotify, wd)
        }
        watched = now
    }

    private func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }
}
