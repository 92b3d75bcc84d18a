// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import CAnnounceLinux
import Dispatch
import Logging

/// Gives the heap memory freed after a burst of work back to the system once the daemon has been
/// quiet for a second.
///
/// glibc's allocator keeps freed memory for reuse: after many posts the daemon's resident set
/// stays above its idle size although nothing leaked (Benchmarks/README.md). `malloc_trim` returns the free
/// pages. It runs once per quiet period, never on a timer while the daemon is idle: a turn of the
/// dispatcher arms it, and it fires one quiet second later (re-armed while turns keep coming).
@MainActor
final class MemoryTrimmer {
    /// How long the dispatcher must see no turn, with nothing speaking or pending, before trimming.
    static let quietPeriod = DispatchTimeInterval.seconds(1)

    private let dispatcher: Dispatcher
    private let logger: Logger
    private var turns: UInt64 = 0
    private var turnsWhenArmed: UInt64 = 0
    private var armed = false

    init(dispatcher: Dispatcher, logger: Logger) {
        self.dispatcher = dispatcher
        self.logger = logger
    }

    /// Starts watching the dispatcher's turns (the dispatcher keeps the trimmer alive).
    /// Also trims once a quiet second after start, when what starting up freed is garbage.
    func install() {
        dispatcher.turnObserver = { self.noticeTurn() }
        noticeTurn()
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
    nonisolated static func configureAllocator() {
        _ = CAnnounceLinux_set_malloc_arena_max(2)
        _ = CAnnounceLinux_set_malloc_mmap_threshold(128 << 10)
    }

    private func noticeTurn() {
        turns &+= 1
        guard !armed else { return }
        armed = true
        arm()
    }

    private func arm() {
        turnsWhenArmed = turns
        DispatchQueue.main.asyncAfter(deadline: .now() + Self.quietPeriod) {
            MainActor.assumeIsolated { self.fire() }
        }
    }

    private func fire() {
        guard turns == turnsWhenArmed, dispatcher.isIdle else {
            arm()
            return
        }
        armed = false
        let start = ContinuousClock.now
        let released = CAnnounceLinux_malloc_trim(0) != 0
        logger.debug(
            "heap trimmed", metadata: ["released": "\(released)", "took": "\(ContinuousClock.now - start)"]
        )
    }
}
