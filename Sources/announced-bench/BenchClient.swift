import Glibc

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
