// SPDX-License-Identifier: GPL-3.0-or-later
import CAnnounceLinux
import Foundation
import Glibc

/// Waits until each of `pids` has ended, on the event itself: a pidfd polls readable once its
/// process has exited (a child not yet reaped included; the processes need not be this process's
/// children). Whether they all ended within `timeout` seconds; one already gone counts as ended.
public func processesEnd(_ pids: [Int32], within timeout: Double) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    for pid in pids {
        let fd = CAnnounceLinux_pidfd_open(pid)
        guard fd >= 0 else { continue }
        defer { close(fd) }
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        var ready: Int32
        repeat {
            ready = poll(&pfd, 1, Int32(max(0, deadline.timeIntervalSinceNow * 1000)))
        } while ready < 0 && errno == EINTR
        guard ready > 0 else { return false }
    }
    return true
}
