// SPDX-License-Identifier: Apache-2.0
import CAnnounceLinux
import Glibc
public import SystemPackage

extension FileDescriptor {
    /// A pipe whose two ends are close-on-exec from the start (`pipe2` with `O_CLOEXEC`), so a
    /// child that another thread spawns meanwhile inherits neither end.
    ///
    /// - Throws: the `Errno` of the failed `pipe2` (`EMFILE`: out of descriptors).
    public static func closeOnExecPipe() throws(Errno) -> (readEnd: FileDescriptor, writeEnd: FileDescriptor) {
        var ends: [Int32] = [-1, -1]
        guard CAnnounceLinux_pipe_cloexec(&ends) == 0 else { throw Errno(rawValue: errno) }
        return (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1]))
    }
}
