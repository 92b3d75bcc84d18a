// SPDX-License-Identifier: GPL-3.0-or-later
import CEngineSandbox
import CSeccomp
import Glibc

/// What a sandboxed process writes when it makes a system call the sandbox refuses, just before
/// it ends with SIGSYS: the daemon then knows which call it was (the signal alone does not say).
///
/// The reports are made before the sandbox is entered, one per system call number, because the
/// signal handler that writes one may only call async-signal-safe functions.
public struct ViolationReport: Sendable {
    /// Where the report goes (the helper's pipe to the daemon).
    public var fd: Int32
    /// The bytes to write for a call, from its name (e.g. `socket`), e.g. one frame of the helper's wire.
    public var message: @Sendable (String) -> [UInt8]

    /// Reports refused calls to `fd` as `message` makes them.
    public init(fd: Int32, message: @escaping @Sendable (String) -> [UInt8]) {
        self.fd = fd
        self.message = message
    }

    /// Above every system call number of x86-64 and arm64.
    static let numbers = 1024

    /// The name of system call `number` on this architecture, e.g. `socket`; `system call 999`
    /// for a number libseccomp does not know.
    public static func systemCallName(_ number: Int32) -> String {
        guard let name = seccomp_syscall_resolve_num_arch(UInt32(SCMP_ARCH_NATIVE), number) else {
            return "system call \(number)"
        }
        defer { free(name) }
        return String(cString: name)
    }

    /// Makes every report and installs the SIGSYS handler that writes them. The reports stay
    /// allocated for the rest of the process.
    func install() throws(EngineSandboxError) {
        let reports = UnsafeMutablePointer<UnsafePointer<UInt8>?>.allocate(capacity: Self.numbers)
        let lengths = UnsafeMutablePointer<Int>.allocate(capacity: Self.numbers)
        for number in 0..<Self.numbers {
            let bytes = message(Self.systemCallName(Int32(number)))
            let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: max(bytes.count, 1))
            copy.initialize(from: bytes, count: bytes.count)
            reports[number] = UnsafePointer(copy)
            lengths[number] = bytes.count
        }
        guard CEngineSandbox_install_violation_handler(fd, reports, lengths, Self.numbers) == 0 else {
            throw .failed("the SIGSYS handler cannot be installed", errno)
        }
    }
}
