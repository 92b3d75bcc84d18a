// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import Synchronization

/// What the benchmark is doing, on standard error (standard output keeps the figures alone): each
/// figure as it begins, numbered among those the run measures, and, while one runs, how many
/// samples it has taken, at most once every two seconds. A bench that stops making progress shows
/// where.
final class BenchProgress: Sendable {
    /// The run's one reporter.
    static let shared = BenchProgress()

    private struct State {
        var figure = 0
        var figures = 0
        var started: UInt64 = 0
        var lastReport: UInt64 = 0
    }
    private let state = Mutex(State())

    /// The run measures `count` figures (the denominator of "figure N of M").
    func plan(figures count: Int) {
        state.withLock {
            $0.figures = count
            $0.started = now()
        }
    }

    /// A figure begins.
    func begin(_ name: String) {
        let line = state.withLock { state -> String in
            state.figure += 1
            state.lastReport = now()
            if state.started == 0 { state.started = state.lastReport }
            let of = state.figures > 0 ? " of \(state.figures)" : ""
            return "bench: figure \(state.figure)\(of): \(name) (\(Self.seconds(since: state.started)) s in)"
        }
        report(line)
    }

    /// `figure` has taken `count` samples.
    func sampled(_ figure: String, count: Int) {
        let line = state.withLock { state -> String? in
            let time = now()
            guard time - state.lastReport >= 2_000_000_000 else { return nil }
            state.lastReport = time
            return
                "bench:   \(figure): \(count) sample\(count == 1 ? "" : "s") (\(Self.seconds(since: state.started)) s in)"
        }
        if let line { report(line) }
    }

    private func report(_ line: String) {
        // One write of a short line: it is not interleaved with the daemon's own lines.
        _ = Array((line + "\n").utf8).withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    private static func seconds(since start: UInt64) -> Int { Int((now() - start) / 1_000_000_000) }
}
