// SPDX-License-Identifier: GPL-3.0-or-later
import CAnnounceLinux
import Glibc
import NIOCore

/// The process on the other end of a Unix socket, from SO_PEERCRED.
struct PeerCredentials: Sendable {
    var pid: Int32
    var uid: UInt32
    var gid: UInt32

    /// The credentials of `channel`'s peer; nil when the kernel does not say. On the channel's
    /// event loop the future is already complete.
    static func of(_ channel: any Channel) -> EventLoopFuture<PeerCredentials?> {
        guard let provider = channel as? any SocketOptionProvider else {
            return channel.eventLoop.makeSucceededFuture(nil)
        }
        // The C shim's `struct ucred`, whose layout it checks against glibc's.
        let future: EventLoopFuture<CAnnounceLinux_ucred> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED)
        )
        return future.map { PeerCredentials(pid: $0.pid, uid: $0.uid, gid: $0.gid) }.recover { _ in nil }
    }
}
