// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import Foundation
import Glibc
import POSIXThreads
import TestSupport
import Testing

/// A Unix socket between a speech-dispatcher client that cannot be asked what it received (Orca,
/// a browser) and the daemon's SSIP socket: every connection made to ``path`` is relayed to the
/// daemon byte for byte, both ways, and the server's lines (replies and 7xx events, exactly as
/// the client read them) and the client's lines are kept for the test.
// Unchecked: the bytes, descriptors and counts below are touched only with `condition` held.
final class SSIPWireTap: @unchecked Sendable {
    /// Where clients connect (their `SPEECHD_ADDRESS` is `unix_socket:` this path).
    let path: String
    private let upstream: String
    private let listener: Int32
    private let condition = ConditionLock()
    /// Per connection (in the order they were accepted), what each side wrote.
    private var clientBytes: [[UInt8]] = []
    private var serverBytes: [[UInt8]] = []
    private var descriptors: [Int32] = []
    /// Per connection, how many of its two directions have ended (both: its sockets are closed).
    private var endedDirections: [Int] = []
    private var closed = false

    /// Listens at `path` and relays each connection to `upstream` (the daemon's SSIP socket).
    init(path: String, upstream: String) throws {
        self.path = path
        self.upstream = upstream
        unlink(path)
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un.make(path: path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, listen(listener, 16) == 0 else {
            let code = errno
            close(listener)
            throw POSIXError(.init(rawValue: code) ?? .EIO)
        }
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Stops listening and ends every relayed connection (the relay's threads hold the tap, so
    /// its owner calls this when done).
    func stop() {
        condition.withLock {
            guard !closed else { return }
            closed = true
            // The accept thread closes the listener when its accept fails.
            shutdown(listener, Int32(SHUT_RDWR))
            // Under the lock: a relay closes its sockets under it too, so no number here is reused.
            for fd in descriptors { shutdown(fd, Int32(SHUT_RDWR)) }
            unlink(path)
        }
    }

    private func acceptLoop() {
        defer { close(listener) }
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            let server = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un.make(path: upstream)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(server, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            // The new connection's index, or nil when the tap is closed or the daemon refused.
            let (index, isClosed): (Int?, Bool) = condition.withLock {
                if closed || connected != 0 { return (nil, closed) }
                clientBytes.append([])
                serverBytes.append([])
                endedDirections.append(0)
                descriptors += [client, server]
                condition.broadcast()
                return (clientBytes.count - 1, false)
            }
            guard let index else {
                close(client)
                close(server)
                if isClosed { return }
                continue
            }
            Thread.detachNewThread { [self] in pump(from: client, to: server, connection: index, fromServer: false) }
            Thread.detachNewThread { [self] in pump(from: server, to: client, connection: index, fromServer: true) }
        }
    }

    /// Copies `from` to `to`, keeping the bytes, until `from` ends; then passes the end on.
    private func pump(from source: Int32, to destination: Int32, connection: Int, fromServer: Bool) {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(source, &chunk, chunk.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            condition.withLock {
                if fromServer {
                    serverBytes[connection] += chunk[..<count]
                } else {
                    clientBytes[connection] += chunk[..<count]
                }
                condition.broadcast()
            }
            var offset = 0
            while offset < count {
                let written = chunk[offset..<count].withUnsafeBytes {
                    Glibc.send(destination, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                if written < 0, errno == EINTR { continue }
                if written <= 0 { break }
                offset += written
            }
        }
        shutdown(destination, Int32(SHUT_WR))
        condition.withLock {
            endedDirections[connection] += 1
            if endedDirections[connection] == 2 {
                descriptors.removeAll { $0 == source || $0 == destination }
                close(source)
                close(destination)
            }
        }
    }

    /// The CR LF lines the server sent on connection `connection`, in order.
    func serverLines(_ connection: Int) -> [String] {
        condition.withLock { connection < serverBytes.count ? Self.lines(serverBytes[connection]) : [] }
    }

    /// The CR LF lines the client sent on connection `connection`, in order.
    func clientLines(_ connection: Int) -> [String] {
        condition.withLock { connection < clientBytes.count ? Self.lines(clientBytes[connection]) : [] }
    }

    /// How many connections were relayed so far.
    var connectionCount: Int {
        condition.withLock { clientBytes.count }
    }

    /// Waits until `predicate` holds for the server's and the client's lines on some connection;
    /// that connection, or nil after `timeout` seconds.
    func waitForConnection(timeout: Double = 30, _ predicate: (_ server: [String], _ client: [String]) -> Bool) -> Int?
    {
        expectBlockingAllowed("Waiting for SSIP traffic through the tap")
        let deadline = monotonicTime(after: .seconds(timeout))
        return condition.withLock {
            while true {
                for index in clientBytes.indices
                where predicate(Self.lines(serverBytes[index]), Self.lines(clientBytes[index])) {
                    return index
                }
                if !condition.wait(until: deadline) { return nil }
            }
        }
    }

    /// The server's event blocks (7xx, CR LF lines up to `7NN TEXT`) on `connection`, each as its
    /// lines, in order.
    func events(_ connection: Int) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String] = []
        for line in serverLines(connection) {
            current.append(line)
            if line.count > 3, line[line.index(line.startIndex, offsetBy: 3)] == " " {
                if line.hasPrefix("7") { blocks.append(current) }
                current = []
            }
        }
        return blocks
    }

    /// The events about message `messageID` on `connection`, as `code` or `code name` for a mark
    /// (`700 0:6`), in order.
    func events(_ connection: Int, messageID: Int) -> [String] {
        events(connection).compactMap { block in
            guard block.count >= 3, block[0].dropFirst(4) == "\(messageID)" else { return nil }
            let code = String(block[0].prefix(3))
            return code == "700" && block.count == 4 ? "700 " + block[2].dropFirst(4) : code
        }
    }

    /// The message ids the server gave on `connection` (`225-<id>`), in order.
    func messageIDs(_ connection: Int) -> [Int] {
        serverLines(connection).compactMap { $0.hasPrefix("225-") ? Int($0.dropFirst(4)) : nil }
    }

    private static func lines(_ bytes: [UInt8]) -> [String] {
        var lines: [String] = []
        var start = 0
        var index = 0
        while index + 1 < bytes.count {
            if bytes[index] == 13 && bytes[index + 1] == 10 {
                lines.append(String(decoding: bytes[start..<index], as: UTF8.self))
                start = index + 2
                index += 2
            } else {
                index += 1
            }
        }
        return lines
    }
}
