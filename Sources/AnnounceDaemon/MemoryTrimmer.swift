// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import CAnnounceLinux
import Logging
import NIOPosix
public import ServiceLifecycle
import Synchronization

/// Gives the heap memory freed after a burst of work back to the system once the daemon has been
/// quiet for a second: a service of the daemon's group, driven by the clock.
///
/// glibc's allocator keeps freed memory for reuse; `malloc_trim` returns the free pages. It runs
/// once per quiet period, never on a timer while the daemon is idle: a turn of the dispatcher
/// wakes the trimmer, which sleeps a quiet second at a time until a second passes without a turn
/// and with nothing speaking or pending, then trims, off the main queue and off Swift's pool: the
/// trim walks the heap and returns pages to the kernel, so it runs on NIO's thread pool for
/// blocking work (`NIOThreadPool.singleton`).
public final class MemoryTrimmer: Service {
    /// How long the dispatcher must see no turn, with nothing speaking or pending, before trimming.
    static let quietPeriod: Duration = .seconds(1)

    private let logger: Logger
    /// The turns the dispatcher has run, and whether it was idle after the last one: written at
    /// the end of each turn, read by the trimmer's loop.
    private let turns = Atomic<UInt64>(0)
    private let idle = Atomic<Bool>(true)
    /// Wakes the loop after a turn (holding one wake at most).
    private let wakes: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation

    init(logger: Logger) {
        self.logger = logger
        (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Has `dispatcher` report each of its turns. Also trims once a quiet second after start,
    /// when what starting up freed is garbage.
    @MainActor
    func watch(_ dispatcher: Dispatcher) {
        dispatcher.turnObserver = { [self, unowned dispatcher] in noticeTurn(idle: dispatcher.isIdle) }
        wake.yield()
    }

    /// Sets up glibc's allocator so a burst's memory goes back once it is over. Call before any
    /// thread starts.
    ///
    /// - Two arenas at most. By default each thread that allocates gets an arena of its own (up to
    ///   8 per core), and the freed memory of a burst stays scattered over them, pinned by a few
    ///   live blocks each: after a million posts the daemon stayed 13% above its idle size even
    ///   after `malloc_trim`, and 2% with two arenas (the speech thread, the event loops and the
    ///   main queue share them; glibc's per-thread caches keep that cheap).
    /// - A fixed mmap threshold of 128 KiB. glibc raises the threshold to the size of each large
    ///   block freed, so after the first big read or batch of a burst, later ones come from the
    ///   heap and leave holes there; fixed, they are mapped and unmapped whole (the measurement is
    ///   in Benchmarks/README.md).
    public static func configureAllocator() {
        _ = CAnnounceLinux_set_malloc_arena_max(2)
        _ = CAnnounceLinux_set_malloc_mmap_threshold(128 << 10)
    }

    private func noticeTurn(idle isIdle: Bool) {
        turns.add(1, ordering: .relaxed)
        idle.store(isIdle, ordering: .relaxed)
        wake.yield()
    }

    /// Waits for turns, then for a quiet second after them, and trims; until graceful shutdown.
    public func run() async {
        var trimmedAfter: UInt64?
        for await _ in wakes.cancelOnGracefulShutdown() {
            var seen = turns.load(ordering: .relaxed)
            // A wake held from before the last trim: nothing has happened since.
            if seen == trimmedAfter { continue }
            while true {
                do {
                    try await cancelWhenGracefulShutdown {
                        try await EventLoopSleep.sleep(for: MemoryTrimmer.quietPeriod)
                    }
                } catch {
                    return
                }
                let now = turns.load(ordering: .relaxed)
                if now == seen, idle.load(ordering: .relaxed) { break }
                seen = now
            }
            trimmedAfter = seen
            let start = ContinuousClock.now
            let released: Bool
            do {
                released = try await NIOThreadPool.singleton.runIfActive { CAnnounceLinux_malloc_trim(0) != 0 }
            } catch {
                return // Cancelled: the daemon is going away.
            }
            logger.debug(
                "heap trimmed", metadata: ["released": "\(released)", "took": "\(ContinuousClock.now - start)"])
        }
    }
}
