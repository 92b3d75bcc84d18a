// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// The two pieces of systemd's protocol the daemon needs, without libsystemd.
public enum Systemd {
    /// The listening socket passed by socket activation (`LISTEN_FDS`, `LISTEN_PID`) for the
    /// daemon's own protocol, if any: see ``activationSockets(environment:)``.
    public static func activationSocket(environment: [String: String]) -> Int32? {
        activationSockets(environment: environment)?.main
    }

    /// The listening sockets passed by socket activation, told apart by `LISTEN_FDNAMES`
    /// (`FileDescriptorName=` in the socket units); nil when none was passed to this process.
    ///
    /// The descriptors are 3, 4, ... in the order of `LISTEN_FDNAMES`. A descriptor named
    /// `announced` (announced.socket) serves the JSON lines protocol, one named `ssip`
    /// (announced-ssip.socket) speech-dispatcher's; systemd's default names, the socket units'
    /// own (`announced.socket`, `announced-ssip.socket`), count too. Without names, or when
    /// their count is not `LISTEN_FDS` (systemd's sd_listen_fds_with_names refuses that too),
    /// descriptor 3 is the main socket, as when announced.socket was the only unit.
    public static func activationSockets(environment: [String: String]) -> ActivationSockets? {
        guard let pidText = environment["LISTEN_PID"], let pid = Int32(pidText), pid == getpid(),
            let countText = environment["LISTEN_FDS"], let count = Int(countText), count >= 1
        else { return nil }
        let descriptors = (0..<count).map { Int32(3 + $0) }
        let names = environment["LISTEN_FDNAMES"].map {
            $0.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        }
        guard let names, names.count == count else {
            return ActivationSockets(main: 3, ssip: nil, unrecognized: descriptors.dropFirst().map { ($0, nil) })
        }
        var sockets = ActivationSockets(main: nil, ssip: nil, unrecognized: [])
        for (descriptor, name) in zip(descriptors, names) {
            if ActivationSockets.mainNames.contains(name), sockets.main == nil {
                sockets.main = descriptor
            } else if ActivationSockets.ssipNames.contains(name), sockets.ssip == nil {
                sockets.ssip = descriptor
            } else {
                sockets.unrecognized.append((descriptor, name))
            }
        }
        return sockets
    }

    /// Sends `state` (e.g. `READY=1`) to `NOTIFY_SOCKET`; does nothing when it is unset.
    /// A name starting with `@` is in the abstract namespace.
    @discardableResult
    public static func notify(_ state: String, environment: [String: String]) -> Bool {
        guard let path = environment["NOTIFY_SOCKET"], !path.isEmpty else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (bytes.first == 0 ? 0 : 1))
        let message = Array(state.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                message.withUnsafeBytes {
                    sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), socketAddress, length)
                }
            }
        }
        return sent == message.count
    }
}

/// The listening sockets systemd passed, by what they serve.
public struct ActivationSockets: Sendable {
    /// The `LISTEN_FDNAMES` names of the socket for the JSON lines protocol.
    public static let mainNames: Set<String> = ["announced", "announced.socket"]
    /// The `LISTEN_FDNAMES` names of the socket for speech-dispatcher's protocol (SSIP).
    public static let ssipNames: Set<String> = ["ssip", "announced-ssip.socket"]

    /// The socket for the JSON lines protocol, if one was passed (else the daemon binds its own).
    public var main: Int32?
    /// The socket for SSIP, if one was passed.
    public var ssip: Int32?
    /// Descriptors passed that are neither, with their names (nil without `LISTEN_FDNAMES`):
    /// left unserved, for the daemon to say so.
    public var unrecognized: [(descriptor: Int32, name: String?)]

    /// Sockets as given.
    public init(main: Int32?, ssip: Int32?, unrecognized: [(descriptor: Int32, name: String?)]) {
        self.main = main
        self.ssip = ssip
        self.unrecognized = unrecognized
    }
}
