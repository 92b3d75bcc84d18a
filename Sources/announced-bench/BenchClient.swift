// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Glibc
import Synchronization

/// A blocking client for the benchmark: writes lines, reads lines, with no JSON parsing beyond
/// finding fields by their bytes. It is the load generator too (100 of them post flat out on the
/// daemon's two cores), so it must cost little: it reads into one reused buffer and matches bytes,
/// never decoding a line into a `String` (the figures must measure the daemon, not the client).
/// One thread may write while another reads: writes touch only the descriptor, and the read
/// buffer belongs to the reading thread.
// Unchecked: the read buffer belongs to the one reading thread; writes touch only the descriptor.
final class BenchClient: @unchecked Sendable {
    let fd: Int32
    /// Bytes read and not yet consumed are `buffer[start..<end]`.
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0
    private var end = 0

    init?(path: String) {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
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

    /// Where the next line lies in `buffer` (without its newline), or nil at end of stream.
    private func nextLine() -> Range<Int>? {
        while true {
            let newline = buffer.withUnsafeBytes { raw in
                memchr(raw.baseAddress! + start, 10, end - start).map {
                    raw.baseAddress!.distance(to: UnsafeRawPointer($0))
                }
            }
            if let newline {
                defer { start = newline + 1 }
                return start..<newline
            }
            if start > 0 {
                buffer.withUnsafeMutableBytes { raw in
                    _ = memmove(raw.baseAddress!, raw.baseAddress! + start, end - start)
                }
                end -= start
                start = 0
            }
            if end == buffer.count { buffer.append(contentsOf: repeatElement(0, count: buffer.count)) }
            let count = buffer.withUnsafeMutableBytes { raw in read(fd, raw.baseAddress! + end, raw.count - end) }
            if count <= 0 { return nil }
            end += count
        }
    }

    /// True when the bytes of `line` contain `fragment`.
    private func line(_ line: Range<Int>, contains fragment: [UInt8]) -> Bool {
        guard let first = fragment.first else { return true }
        guard fragment.count <= line.count else { return false }
        return buffer.withUnsafeBufferPointer { bytes in
            var index = line.lowerBound
            while index <= line.upperBound - fragment.count {
                if bytes[index] == first, bytes[index..<(index + fragment.count)].elementsEqual(fragment) {
                    return true
                }
                index += 1
            }
            return false
        }
    }

    /// Reads until a line containing every fragment; returns the time it arrived.
    @discardableResult
    func waitFor(_ fragments: String...) -> UInt64? {
        let patterns = fragments.map { Array($0.utf8) }
        while let range = nextLine() {
            if patterns.allSatisfy({ line(range, contains: $0) }) { return now() }
        }
        return nil
    }

    /// Reads until each of `lines` has arrived, in whatever order, where a line is given by the
    /// fragments it contains; returns the time each arrived, in the order of `lines`, or nil at
    /// end of stream.
    ///
    /// For a request's reply together with the event it causes: the daemon answers a request
    /// before the lines it causes (a `pause`'s `ok` comes before its `paused`), and `waitFor`
    /// passes over every line until its own, so waiting for the event first and then for the reply
    /// would wait for a reply already read.
    func waitForEach(_ lines: [[String]]) -> [UInt64]? {
        let patterns = lines.map { $0.map { Array($0.utf8) } }
        var arrived = [UInt64?](repeating: nil, count: lines.count)
        while arrived.contains(nil), let range = nextLine() {
            for index in patterns.indices where arrived[index] == nil {
                if patterns[index].allSatisfy({ line(range, contains: $0) }) {
                    arrived[index] = now()
                    break
                }
            }
        }
        return arrived.contains(nil) ? nil : arrived.map { $0! }
    }

    /// Reads until the end of a line that contains any one of `fragments`; false at end of stream.
    func skipToLine(containingAnyOf fragments: [[UInt8]]) -> Bool {
        while let range = nextLine() {
            if fragments.contains(where: { line(range, contains: $0) }) { return true }
        }
        return false
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
        let terminalEvents = [Array(#""event":"finished""#.utf8), Array(#""event":"dropped""#.utf8)]
        var terminals = 0
        while terminals < ids.count, skipToLine(containingAnyOf: terminalEvents) {
            terminals += 1
            answered.store(terminals, ordering: .releasing)
        }
        return terminals
    }
}

extension BenchClient {
    /// Posts an announcement with `fields`, numbered by `id` (counted up first), and waits for its
    /// `finished`: a post spoken whole, to warm a voice or fill a cache.
    func speakWhole(id: inout Int, _ fields: String) throws {
        id += 1
        send(#"{"op":"announce","id":\#(id),\#(fields)}"#)
        guard waitFor(#""event":"finished""#, #""id":\#(id),"#) != nil else {
            throw BenchError("lost the connection")
        }
    }
}
