import Glibc
import NIOCore

/// The process on the other end of a Unix socket, from SO_PEERCRED. Laid out like the kernel's
/// `struct ucred` (pid, uid, gid), which Glibc's module does not export.
struct PeerCredentials: Sendable {
    var pid: Int32
    var uid: UInt32
    var gid: UInt32

    /// The credentials of `channel`'s peer; nil when the kernel does not say.
    static func of(_ channel: any Channel) async -> PeerCredentials? {
        guard let provider = channel as? any SocketOptionProvider else { return nil }
        let future: EventLoopFuture<PeerCredentials> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED)
        )
        return try? await future.get()
    }
}
