// SPDX-License-Identifier: Apache-2.0
import CAnnounceLinux
import Glibc
public import SystemPackage

/// A signal one thread raises and another waits for in `poll` (or a main loop's I/O watch): an
/// eventfd, close-on-exec and non-blocking, that polls readable from ``raise()`` until
/// ``clear()``. The one way the daemon wakes a thread that waits on descriptors. Raised and never
/// cleared, it is a latch that every poller sees (a stop that ends every stream).
///
/// A value like `FileDescriptor`: copies name the same eventfd, and its owner calls ``close()``
/// once nothing polls or raises it any more.
public struct WakeSignal: Sendable {
    /// The eventfd to poll for `POLLIN`.
    public let descriptor: FileDescriptor

    /// A new, lowered signal.
    /// - Throws: the `Errno` of the failed `eventfd` (`EMFILE`: out of descriptors).
    public init() throws(Errno) {
        let raw = CAnnounceLinux_eventfd()
        guard raw >= 0 else { throw Errno(rawValue: errno) }
        descriptor = FileDescriptor(rawValue: raw)
    }

    /// Raises the signal (any thread; never blocks): ``descriptor`` polls readable until
    /// ``clear()``. Raising a raised signal changes nothing a poller sees.
    public func raise() {
        _ = try? withUnsafeBytes(of: UInt64(1)) { try descriptor.write($0) }
    }

    /// Lowers the signal (the waiting thread, once woken): its counter read back to zero.
    public func clear() {
        var counter: UInt64 = 0
        _ = try? withUnsafeMutableBytes(of: &counter) { try descriptor.read(into: $0) }
    }

    /// Closes the eventfd.
    public func close() {
        try? descriptor.close()
    }
}
