// SPDX-License-Identifier: Apache-2.0
import SystemPackage

/// The name the kernel keeps for a process (`/proc/PID/comm`: its executable's name, or what it
/// set with `prctl(PR_SET_NAME)`, at most 15 bytes).
public enum ProcessName {
    /// The name of the process `pid`, without its newline; nil when there is no such process (or
    /// it ended while being read).
    public static func of(pid: Int32) -> String? {
        guard pid > 0, let bytes = try? FileDescriptor.readFile("/proc/\(pid)/comm", limit: 64), !bytes.isEmpty
        else { return nil }
        let name = bytes.last == UInt8(ascii: "\n") ? bytes.dropLast() : bytes[...]
        return String(decoding: name, as: UTF8.self)
    }
}
