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

    /// The message.
    public var description: String { message }
}
