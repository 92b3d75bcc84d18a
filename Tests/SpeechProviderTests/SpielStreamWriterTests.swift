// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import POSIXThreads
import TestSupport
import Testing

@testable import SpeechProvider

/// Spiel's `audio/x-spiel` stream as a client reads it from its pipe: the header and the chunks
/// byte for byte, and the two ways a write gives up (the client closed its end, the provider stops).
@Suite("SpielStreamWriter: the audio/x-spiel stream on a client's pipe")
struct SpielStreamWriterTests {
    /// A pipe: the client's read end and the writer's end.
    static func pipePair() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0, "pipe: errno \(errno)")
        return (ends[0], ends[1])
    }

    /// Reads `count` bytes from `fd` (which has them already).
    static func read(_ fd: Int32, count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + got, count - got) }
            if n <= 0 { break }
            got += n
        }
        return Array(bytes[..<got])
    }

    static func littleEndian(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }

    @Test("the header, an audio chunk and an event chunk are written as libspeechprovider writes them")
    func chunksByteForByte() throws {
        let client = try Self.pipePair()
        let stop = try Self.pipePair()
        defer { [client.read, client.write, stop.read, stop.write].forEach { close($0) } }
        let writer = SpielStreamWriter(fd: client.write, stop: stop.read)
        #expect(writer.header())
        #expect(writer.audio([1, -2, 300][...]))
        #expect(writer.event(.word, start: 4, end: 9))
        #expect(writer.event(.mark, start: 12, end: 12, name: "m1"))
        let header = Array("0.01".utf8)
        let audio = [1] + Self.littleEndian(6) + [1, 0, 0xFE, 0xFF, 0x2C, 0x01]
        let word = [2, 1] + Self.littleEndian(4) + Self.littleEndian(9) + Self.littleEndian(0)
        let mark = [2, 4] + Self.littleEndian(12) + Self.littleEndian(12) + Self.littleEndian(2) + Array("m1".utf8)
        let expected = header + audio + word + mark
        #expect(Self.read(client.read, count: expected.count) == expected)
    }

    @Test("a write to a client that closed its end reports false, and the provider lives on")
    func closedClient() throws {
        // A write to a pipe with no reader raises SIGPIPE; the daemon ignores it, as here.
        signal(SIGPIPE, SIG_IGN)
        let client = try Self.pipePair()
        let stop = try Self.pipePair()
        defer { [client.write, stop.read, stop.write].forEach { close($0) } }
        let writer = SpielStreamWriter(fd: client.write, stop: stop.read)
        close(client.read)
        #expect(!writer.header())
    }

    @Test("a write blocked on a client that stopped reading gives up when the provider stops")
    func stopEndsABlockedWrite() throws {
        let client = try Self.pipePair()
        let stop = try Self.pipePair()
        defer { [client.read, client.write, stop.read].forEach { close($0) } }
        let writer = SpielStreamWriter(fd: client.write, stop: stop.read)
        let blocked = Latch()
        let done = Latch()
        let result = LockedValue<Bool?>(nil)
        DedicatedThread.start(name: "spiel-writer-test", stackSize: 256 << 10) {
            // 128 KiB, twice a pipe's buffer: the write blocks until the provider stops.
            let samples = [Int16](repeating: 7, count: 1 << 16)
            blocked.open()
            let written = writer.audio(samples[...])
            result.withLock { $0 = written }
            done.open()
        }
        blocked.wait()
        close(stop.write)
        #expect(done.wait(timeout: .seconds(30)), "the write did not give up")
        #expect(result.withLock { $0 } == false)
    }
}
