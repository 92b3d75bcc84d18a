// SPDX-License-Identifier: Apache-2.0
import SystemPackage

/// Writes `message` and a newline to standard error in one `writeAll`; a failure to write (a
/// closed standard error) is ignored, as there is nowhere left to report it.
public func printToStandardError(_ message: String) {
    _ = try? FileDescriptor.standardError.writeAll((message + "\n").utf8)
}
