// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// The lock a daemon holds on a socket file it serves: an exclusive `flock` on `PATH.lock`
/// beside it, taken before the socket file is checked or replaced and released after the file is
/// removed. The kernel releases it when the daemon dies, so a crashed daemon's lock never stays.
struct SocketFileLock: Sendable {
    private let fd: Int32

    /// Takes the lock for the socket at `path`; an error saying the socket is already served when
    /// another daemon holds it.
    static func take(for path: String, role: SocketRole) throws(SocketSetupError) -> SocketFileLock {
        let lockPath = path + ".lock"
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            throw SocketSetupError(description: SocketPreparation.cannotCreate(lockPath, errno, role: role))
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            close(fd)
            if code == EWOULDBLOCK {
                throw SocketSetupError(description: role.alreadyServed(path))
            }
            throw SocketSetupError(description: SocketPreparation.cannotCreate(lockPath, code, role: role))
        }
        return SocketFileLock(fd: fd)
    }

    /// Lets another daemon take the socket file.
    func release() {
        close(fd)
    }
}
