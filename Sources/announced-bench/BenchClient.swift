import Foundation
import Glibc
import Synchronization

/// A blocking client for the benchmark: writes lines, reads lines, with no JSON parsing beyond
/// finding fields by their text (the figures must measure the daemon, not the client).
/// One thread may write while another reads: writes touch only the descriptor, and the read
/// buffer belongs to the reading thread.
final class BenchClient: @unchecked Sendable {
    let fd: Int32
    private var buffer: [UInt8] = []
    private var start = 0

    init?(path: String) {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if result != 0 {
            close(fd)
            return nil
        }
    }

    deinit { close(fd) }

    func send(_ text: String) {
        var bytes = Array(text.utf8)
        if bytes.last != 10 { bytes.append(10) }
        send(bytes)
    }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written <= 0 { return }
            offset += written
        }
    }

    /// The next line as text, or nil at end of stream.
    func readLine() -> String? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 10) {
                let line = String(decoding: buffer[start..<newline], as: UTF8.self)
                start = newline + 1
                if start > 65536 {
                    buffer.removeFirst(start)
                    start = 0
                }
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = read(fd, &chunk, chunk.count)
            if count <= 0 { return nil }
            buffer.append(contentsOf: chunk[..<count])
        }
    }

    /// Reads until a line containing every fragment; returns the time it arrived.
    @discardableResult
    func waitFor(_ fragments: String...) -> UInt64? {
        while let line = readLine() {
            if fragments.allSatisfy({ line.contains($0) }) { return now() }
        }
        return nil
    }
}

extension BenchClient {
    /// Posts one announcement per id in `ids` (each line made by `line`) from a writer thread,
    /// and reads on the calling thread until each has its terminal line. The writer keeps at
    /// most `window` posts unanswered, as a pipelining client would: a client that writes without
    /// reading is a slow reader, which the daemon closes past max_outbound_bytes (1 MiB, about
    /// 12,000 posts' lines).
    /// - Returns: the terminal lines received; fewer than `ids.count` if the connection closed.
    func postPipelined(_ ids: Range<Int>, window: Int = 4_096, line: @escaping @Sendable (Int) -> String) -> Int {
        let answered = Atomic<Int>(0)
        let writer = Thread { [self] in
            var batch: [UInt8] = []
            for id in ids {
                batch.append(contentsOf: line(id).utf8)
                batch.append(10)
                if batch.count > 32_768 {
                    while id - ids.lowerBound - answered.load(ordering: .acquiring) > window { sched_yield() }
                    send(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
            send(batch)
        }
        writer.start()
        var terminals = 0
        while terminals < ids.count, let text = readLine() {
            if text.contains(#""event":"finished""#) || text.contains(#""event":"dropped""#) {
                terminals += 1
                answered.store(terminals, ordering: .releasing)
            }
        }
        return terminals
    }
}
