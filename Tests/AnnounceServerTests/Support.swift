import NIOEmbedded
import TestSupport

// SPDX-License-Identifier: GPL-3.0-or-later
@testable import AnnounceServer

/// The server on embedded channels with the JSON lines front end.
typealias ServerHarness = EmbeddedServerHarness<JSONLinesFrontEnd>

extension ServerHarness {
    /// A server with the line limit `maxLineBytes` that serves the users `allowUIDs` besides the test's own.
    init(maxLineBytes: Int = 65536, allowUIDs: [UInt32] = []) {
        var configuration = ServerConfiguration(socketPath: "/nonexistent/announced.sock")
        configuration.maxLineBytes = maxLineBytes
        configuration.allowUIDs = allowUIDs
        self.init(server: configuration, frontEnd: JSONLinesFrontEnd(maxLineBytes: maxLineBytes)) {
            server, channel, uid, frontEnd in
            try server.configure(channel, peer: PeerCredentials(pid: 42, uid: uid, gid: 0), frontEnd: frontEnd)
        }
    }
}

extension EmbeddedChannel {
    /// Every line the connection has written so far.
    func writtenLines() throws -> [String] {
        try writes().joined().split(separator: "\n").map(String.init)
    }
}
