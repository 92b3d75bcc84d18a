// SPDX-License-Identifier: GPL-3.0-or-later
import AnnouncePOSIX
import Glibc
import SystemPackage

/// Blocking frame I/O on one pipe end.
public final class FrameChannel {
    /// The file descriptor.
    public let fd: Int32
    /// The same, for swift-system's reads and writes (which retry on EINTR).
    private let descriptor: FileDescriptor
    private var buffer: [UInt8] = []
    private var start = 0

    /// Wraps `fd`; the channel does not close it.
    public init(fd: Int32) {
        self.fd = fd
        descriptor = FileDescriptor(rawValue: fd)
    }

    /// Writes all of `bytes`. False when the other end is gone.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { write($0) }
    }

    /// Writes all of `bytes`. False when the other end is gone.
    @discardableResult
    public func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        (try? descriptor.writeAll(bytes)) != nil
    }

    /// The next frame's tag and payload, waiting for it (at most `timeout` milliseconds for
    /// each chunk of it, when given); nil at end of stream, on an error, or on timeout (then
    /// `timedOut` is set).
    public func readFrame(timeout: Int32? = nil) -> (tag: UInt8, payload: ArraySlice<UInt8>)? {
        timedOut = false
        while true {
            let available = buffer.count - start
            if available >= 5 {
                var length = 0
                for shift in 0..<4 { length |= Int(buffer[start + 1 + shift]) << (8 * shift) }
                if available >= 5 + length {
                    let tag = buffer[start]
                    let payload = buffer[(start + 5)..<(start + 5 + length)]
                    start += 5 + length
                    return (tag, payload)
                }
                if buffer.capacity < start + 5 + length, length <= Self.longestReservation {
                    // A long frame (a chapter's text): room for all of it at once, so it is
                    // copied in once rather than again at every doubling of the buffer.
                    buffer.reserveCapacity(start + 5 + length)
                }
            }
            if start > 0, start == buffer.count, buffer.capacity > Self.keptCapacity {
                // A long frame (a chapter's text) has been read: give its memory back.
                buffer = []
                start = 0
            } else if start > 0, start >= buffer.count / 2 {
                buffer.removeFirst(start)
                start = 0
            }
            if let timeout {
                var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = retryingOnInterrupt { poll(&waiting, 1, timeout) }
                if ready == 0 {
                    timedOut = true
                    return nil
                }
            }
            guard fill() else { return nil }
        }
    }

    /// The most buffer capacity kept once everything in it has been read: enough for the frames
    /// of audio; a longer frame's buffer is freed after it.
    static let keptCapacity = 65_536

    /// The longest frame room is made for before its bytes arrive (a text of `max_text_chars`
    /// scalars in UTF-8 is at most 4 MiB): a length beyond it, from a helper gone wrong, only
    /// grows the buffer as bytes come.
    static let longestReservation = 8 << 20

    /// Whether the last `readFrame` gave up waiting.
    public private(set) var timedOut = false

    /// Whether a frame (or its start) can be read without waiting.
    public var hasInput: Bool {
        if buffer.count > start { return true }
        var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&waiting, 1, 0) > 0
    }

    /// Reused for every read: frames of audio arrive every few milliseconds.
    private var chunk = [UInt8](repeating: 0, count: 16_384)

    private func fill() -> Bool {
        guard let count = try? chunk.withUnsafeMutableBytes({ try descriptor.read(into: $0, retryOnInterrupt: true) }),
            count > 0
        else {
            return false
        }
        buffer.append(contentsOf: chunk[..<count])
        return true
    }
}
