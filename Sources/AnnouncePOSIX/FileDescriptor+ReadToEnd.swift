// SPDX-License-Identifier: Apache-2.0
public import SystemPackage

extension FileDescriptor {
    /// The bytes from the current offset to the end of the file, read in `chunk`-byte reads
    /// (retried on `EINTR`, as every swift-system call is). Stops early once more than `limit`
    /// bytes have been read, so a caller refusing a file larger than `limit` checks
    /// `count > limit` without reading all of it.
    ///
    /// - Throws: the `Errno` of a failed read.
    public func readToEnd(limit: Int, chunk: Int = 65536) throws(Errno) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: chunk)
        while bytes.count <= limit {
            let count: Int
            do {
                count = try buffer.withUnsafeMutableBytes { try read(into: $0) }
            } catch {
                throw error as? Errno ?? .ioError
            }
            if count == 0 { break }
            bytes += buffer[..<count]
        }
        return bytes
    }

    /// The whole file at `path`, or more than `limit` bytes of it (see ``readToEnd(limit:chunk:)``).
    ///
    /// - Throws: the `Errno` of the failed `open` or `read`.
    public static func readFile(_ path: String, limit: Int) throws(Errno) -> [UInt8] {
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(FilePath(path), .readOnly, options: .closeOnExec)
        } catch {
            throw error as? Errno ?? .ioError
        }
        defer { try? descriptor.close() }
        return try descriptor.readToEnd(limit: limit)
    }
}
