// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// The sandbox could not be entered. The helper must then stop rather than read untrusted text.
public struct EngineSandboxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What failed, and what to do about it.
    public var message: String

    /// An error with a user-facing message.
    public init(_ message: String) {
        self.message = message
    }

    /// `what` failed with the error number `code`.
    static func failed(_ what: String, _ code: Int32) -> EngineSandboxError {
        EngineSandboxError(
            "the speech engine's sandbox cannot be set up: \(what): \(String(cString: strerror(code))). "
                + "The engine needs a Linux kernel with seccomp filters (CONFIG_SECCOMP_FILTER) and libseccomp 2.5 or later; "
                + "without its sandbox it does not speak."
        )
    }

    /// The seccomp filter cannot be put on every thread of the process at once (TSYNC), with the
    /// error number `code`: EOPNOTSUPP when the seccomp system call is missing or refused (libseccomp
    /// then has only prctl, which filters the calling thread alone), ESRCH when a thread has a
    /// filter of its own.
    static func threadsNotSynchronized(_ code: Int32) -> EngineSandboxError {
        EngineSandboxError(
            "the speech engine's sandbox cannot be set up: the seccomp filter cannot be put on every thread at once (TSYNC): "
                + "\(String(cString: strerror(code))), so a thread could run without it. The engine needs the seccomp system call "
                + "(Linux 3.17 or later); if a container's seccomp profile refuses it, allow it. Without its sandbox it does not speak."
        )
    }

    /// The message.
    public var description: String { message }
}
