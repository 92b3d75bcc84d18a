// SPDX-License-Identifier: GPL-3.0-or-later
import AnnouncePOSIX
import Glibc
import NIOPosix

/// Whether an Orca process runs: a process of any user whose name (`/proc/PID/comm`) is `orca`.
/// `ScreenReaderEnabled` is set by GNOME's settings, so a desktop that starts Orca some other
/// way leaves it false; the toolkit announcements' `auto` asks both. The answer is kept for a
/// second, so a flood of announcements reads /proc about once a second. The scan reads a file per
/// process, so it runs on NIO's thread pool for blocking work, never on a thread of Swift's pool.
struct OrcaProcesses {
    private var lastAnswer: (running: Bool, at: ContinuousClock.Instant)?

    /// Whether Orca runs now (or did less than a second ago); false when the task is cancelled
    /// before the scan ran (that answer is not kept).
    mutating func isRunning() async -> Bool {
        let now = ContinuousClock.now
        if let lastAnswer, now - lastAnswer.at < .seconds(1) { return lastAnswer.running }
        guard let running = try? await NIOThreadPool.singleton.runIfActive({ Self.scan() }) else { return false }
        lastAnswer = (running, now)
        return running
    }

    private static func scan() -> Bool {
        guard let proc = opendir("/proc") else { return false }
        defer { closedir(proc) }
        while let entry = readdir(proc) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let first = name.utf8.first, first >= UInt8(ascii: "1"), first <= UInt8(ascii: "9"),
                let pid = Int32(name)
            else { continue }
            if ProcessName.of(pid: pid) == "orca" { return true }
        }
        return false
    }
}
