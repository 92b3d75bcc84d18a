// SPDX-License-Identifier: GPL-3.0-or-later
import AnnouncePOSIX
import Glibc
import SystemPackage

/// The few file operations voices need, on glibc and swift-system: neither the daemon nor
/// announcectl links Foundation (`announcectl voices install` looks at its source with them).
public enum VoiceFileIO {
    /// What `stat` says of a file that matters for noticing a change.
    public struct Identity: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64
        var size: Int
        var modified: Int
        var modifiedNanoseconds: Int
        /// A regular file.
        public var isRegular: Bool
        /// A directory.
        public var isDirectory: Bool
    }

    /// The file at `path`, following symbolic links; nil when there is none.
    public static func identity(_ path: String) -> Identity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Identity(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int(info.st_size),
            modified: Int(info.st_mtim.tv_sec), modifiedNanoseconds: Int(info.st_mtim.tv_nsec),
            isRegular: info.st_mode & S_IFMT == S_IFREG, isDirectory: info.st_mode & S_IFMT == S_IFDIR
        )
    }

    /// The names in the directory `path` (not `.` and `..`); nil and `errno` set when it cannot
    /// be read.
    public static func names(in path: String) -> [String]? {
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// The whole file at `path`, at most `limit` bytes.
    static func read(_ path: String, limit: Int) throws(PiperVoiceProblem) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw PiperVoiceProblem("cannot be read (\(errorText())); check that it exists and its permissions")
        }
        defer { close(fd) }
        return try read(descriptor: fd, limit: limit)
    }

    /// Everything left in the open file `fd`, at most `limit` bytes.
    static func read(descriptor fd: Int32, limit: Int) throws(PiperVoiceProblem) -> [UInt8] {
        let bytes: [UInt8]
        do {
            bytes = try FileDescriptor(rawValue: fd).readToEnd(limit: limit)
        } catch {
            throw PiperVoiceProblem("cannot be read (\(error.description))")
        }
        if bytes.count > limit {
            throw PiperVoiceProblem("is larger than \(limit >> 20) MiB; it is not a Piper voice's configuration")
        }
        return bytes
    }

    /// Checks the model at `path` (see ``ONNXModelCheck``).
    static func checkModel(_ path: String) throws(PiperVoiceProblem) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw PiperVoiceProblem("cannot be read (\(errorText())); check that it exists and its permissions")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw PiperVoiceProblem("cannot be read (\(errorText()))") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw PiperVoiceProblem("is not a regular file") }
        try ONNXModelCheck.check(descriptor: fd, size: Int(info.st_size))
    }

    /// `strerror(errno)`.
    static func errorText(_ code: Int32 = errno) -> String {
        String(cString: strerror(code))
    }
}
