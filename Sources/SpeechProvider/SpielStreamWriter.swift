// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import SystemPackage

/// Writes Spiel's `audio/x-spiel` stream to a client's pipe, as libspeechprovider's
/// `SpeechProviderStreamWriter` does (`speech-provider-stream-writer.c`, the packed structures of
/// `speech-provider-stream.h`): the header, the 4 bytes `0.01`; then chunks in the machine's byte
/// order. An audio chunk is the byte 1, a `u32` length in bytes and that many bytes of 16-bit
/// samples; an event chunk is the byte 2, then the event's type byte (1 word, 2 sentence,
/// 3 range, 4 mark), `u32` start, `u32` end, `u32` name length and the name's bytes.
///
/// The descriptor is made non-blocking: a client that stops reading holds a write only until it
/// reads again, closes its end, or `stop` (a pipe whose other end the provider closes on
/// shutdown) hangs up.
struct SpielStreamWriter {
    enum EventType: UInt8 {
        case word = 1
        case mark = 4
    }

    let fd: Int32
    let stop: Int32

    init(fd: Int32, stop: Int32) {
        self.fd = fd
        self.stop = stop
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    /// The stream's header.
    func header() -> Bool { write(Array("0.01".utf8)) }

    /// One audio chunk.
    func audio(_ samples: ArraySlice<Int16>) -> Bool {
        var chunk: [UInt8] = [1]
        append(UInt32(samples.count * 2), to: &chunk)
        samples.withUnsafeBytes { chunk.append(contentsOf: $0) }
        return write(chunk)
    }

    /// One event chunk; start and end count Unicode scalars of the text from 0.
    func event(_ type: EventType, start: Int, end: Int, name: String = "") -> Bool {
        var chunk: [UInt8] = [2, type.rawValue]
        append(UInt32(clamping: start), to: &chunk)
        append(UInt32(clamping: end), to: &chunk)
        append(UInt32(name.utf8.count), to: &chunk)
        chunk += name.utf8
        return write(chunk)
    }

    private func append(_ value: UInt32, to chunk: inout [UInt8]) {
        withUnsafeBytes(of: value) { chunk.append(contentsOf: $0) }
    }

    /// Writes all of `bytes`; false when the client closed its end or the provider stops.
    private func write(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            do {
                let written = try bytes[offset...].withUnsafeBytes { try FileDescriptor(rawValue: fd).write($0) }
                guard written > 0 else { return false }
                offset += written
                continue
            } catch Errno.resourceTemporarilyUnavailable {
                // The client's pipe is full: wait below for room, or for the stream's stop.
            } catch {
                return false
            }
            var fds = [pollfd(fd: fd, events: Int16(POLLOUT), revents: 0), pollfd(fd: stop, events: 0, revents: 0)]
            _ = poll(&fds, 2, -1)
            if fds[1].revents != 0 || fds[0].revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 { return false }
        }
        return true
    }
}
