// SPDX-License-Identifier: GPL-3.0-or-later
/// An error of the speech engine or an audio output. Its message says what went wrong and what
/// the user can do about it.
public struct SpeechSynthesisError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The full, user-facing message.
    public var message: String

    /// Creates an error with a user-facing message.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

extension SpeechSynthesisError {
    /// The WAV output directory cannot be created or used.
    static func unusableDirectory(_ path: String, reason: String) -> SpeechSynthesisError {
        SpeechSynthesisError(
            "cannot use '\(path)' as the WAV output directory: \(reason). Choose a writable directory "
                + "with --audio wav:DIR, or create this one with write permission for the daemon."
        )
    }

    /// A WAV file cannot be written.
    static func fileWriteFailed(_ path: String, reason: String) -> SpeechSynthesisError {
        SpeechSynthesisError(
            "cannot write the WAV file '\(path)': \(reason). Check that the disk is not full and that "
                + "the directory is writable."
        )
    }
}
