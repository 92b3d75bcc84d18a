import Glibc
import NIOCore

/// The process on the other end of a Unix socket, from SO_PEERCRED. Laid out like the kernel's
/// `struct ucred` (pid, uid, gid), which Glibc's module does not export.
struct PeerCredentials: Sendable {
    var pid: Int32
    var uid: UInt32
    var gid: UInt32

    /// The credentials of `channel`'s peer; nil when the kernel does not say. On the channel's
    /// event loop the future is already complete.
    static func of(_ channel: any Channel) -> EventLoopFuture<PeerCredentials?> {
        guard let provider = channel as? any SocketOptionProvider else { return channel.eventLoop.makeSucceededFuture(nil) }
        let future: EventLoopFuture<PeerCredentials> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED)
        )
        return future.map { Optional($0) }.recover { _ in nil }
    }
}
