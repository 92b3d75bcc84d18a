// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Glibc

/// Waits until the file at `path` holds `text`, on the event itself: an inotify watch on its
/// folder wakes the wait each time a file there is created or written (so the file need not
/// exist yet), and the file is read again then. Whether it held `text` within `timeout` seconds.
public func waitForFile(_ path: String, toContain text: String, timeout: Double) -> Bool {
    func holds() -> Bool { ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").contains(text) }
    let watch = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
    guard watch >= 0 else { fatalError("inotify_init1 failed (errno \(errno)): raise fs.inotify.max_user_instances") }
    defer { close(watch) }
    let folder = (path as NSString).deletingLastPathComponent
    guard inotify_add_watch(watch, folder, UInt32(IN_CREATE | IN_MODIFY | IN_CLOSE_WRITE)) >= 0 else {
        return holds()
    }
    let deadline = Date().addingTimeInterval(timeout)
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        // Read after the watch is set: a write before it is in the file, one after it wakes the poll.
        if holds() { return true }
        let left = deadline.timeIntervalSinceNow
        guard left > 0 else { return false }
        var pfd = pollfd(fd: watch, events: Int16(POLLIN), revents: 0)
        if poll(&pfd, 1, Int32(max(1, left * 1000))) > 0 {
            while buffer.withUnsafeMutableBytes({ read(watch, $0.baseAddress, $0.count) }) > 0 {}
        }
    }
}
