// SPDX-License-Identifier: Apache-2.0
import Glibc

/// The process's environment as a dictionary, read from `environ`.
///
/// Written here rather than taken from `ProcessInfo`: that is Foundation's, which neither the
/// daemon nor announcectl links.
public enum ProcessEnvironment {
    /// Every `NAME=value` entry; for a name given twice, the first one, as `getenv` reads it.
    public static var current: [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "="), result[String(text[..<equals])] == nil {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return result
    }
}
